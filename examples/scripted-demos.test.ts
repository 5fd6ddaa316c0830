import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runEval } from '../src/eval/run-eval.js';
import { loadJudgeDefinition } from '../src/eval/scorers/judge-definition.js';
import { llmJudgeScorer } from '../src/eval/scorers/llm-judge.js';
import type { EvalRow } from '../src/eval/types.js';
import { loadScriptedModel } from '../src/model/scripted-file.js';
import { ScriptedModel } from '../src/model/scripted-model.js';
import type { AgentDefinition } from '../src/definition/types.js';
import { runCliCaptured } from '../src/testing/run-cli-captured.js';

const here = dirname(fileURLToPath(import.meta.url));

describe('the shipped scripted judge (examples/evals/judge-turns.json, scripted model responses)', () => {
  it('judges what it is given: a wrong answer fails, a right one passes', async () => {
    const judge = llmJudgeScorer({
      definition: await loadJudgeDefinition(),
      model: () => loadScriptedModel(join(here, 'evals/judge-turns.json')),
    });
    const geographer: AgentDefinition = {
      name: 'geographer',
      description: 'Names capitals.',
      promptConfig: { systemPrompt: 'Name the capital.' },
      toolConfig: { tools: [] },
    };
    const rows: EvalRow[] = [
      { id: 'right', input: 'Capital of France?', expected: 'Paris', source: 't:1' },
      { id: 'wrong', input: 'Capital of Spain?', expected: 'Madrid', source: 't:2' },
    ];
    // The agent answers Paris to everything.
    const report = await runEval(geographer, rows, {
      scorers: [judge],
      run: {},
      model: () => new ScriptedModel([{ parts: [{ text: 'It is Paris.' }] }]),
    });
    expect(report.results.map((r) => [r.row_id, r.scores.llm_judge])).toEqual([
      ['right', expect.objectContaining({ status: 'scored', score: 1, label: 'pass' })],
      ['wrong', expect.objectContaining({ status: 'scored', score: 0, label: 'fail' })],
    ]);
  });
});

describe('cadre chat with examples/scripts/assistant-turns.json (scripted model responses)', () => {
  it('says the booking failed, as the tool did, instead of claiming it', async () => {
    // cadre chat's built-in assistant has no calendar tool: the call fails, and the reply says so.
    const cwd = await mkdtemp(join(tmpdir(), 'cadre-chat-demo-'));
    const lines = ['Book a design review with Ana on 1 December at 9 UTC', '/quit'];
    const run = await runCliCaptured(
      ['chat', '--model', `scripted:${join(here, 'scripts/assistant-turns.json')}`],
      { cwd, env: { HOME: `${cwd}-home` }, ask: () => Promise.resolve(lines.shift() ?? '/quit') },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "assistant> I could not book the design review: Unauthorized tool call: 'calendar_event_create' " +
        'is not available to this agent. Available tools: ls, read_file, glob, grep.\n',
    );
    expect(run.stdout).not.toContain('Booked');
  });
});
