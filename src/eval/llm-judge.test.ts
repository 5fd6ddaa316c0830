import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import { runEval } from './run-eval.js';
import { containsScorer } from './scorers/contains.js';
import { defaultJudgeFile, loadJudgeDefinition } from './scorers/judge-definition.js';
import { llmJudgeScorer } from './scorers/llm-judge.js';
import { assistant, rows, scriptedModelFor, tools } from './testing/test-support.js';

const verdict = (v: string, reason: string): ScriptedTurn => ({
  parts: [{ functionCall: { name: 'complete_task', args: { verdict: { verdict: v, reason } } } }],
  usage: { inputTokens: 50, outputTokens: 7 },
});

describe('llm_judge with a scripted judge model', () => {
  it('runs the shipped judge agent and maps its verdict to a score', async () => {
    expect(defaultJudgeFile()).toMatch(/examples\/agents\/judge\.yaml$/);
    const judge = await loadJudgeDefinition();
    const judgeModels: ScriptedModel[] = [];
    const scorer = llmJudgeScorer({
      definition: judge,
      model: () => {
        const model = new ScriptedModel([verdict('PARTIAL', 'Right city, missing detail.')]);
        judgeModels.push(model);
        return model;
      },
    });
    const report = await runEval(assistant, [rows[0]!], {
      scorers: [scorer, containsScorer()],
      run: { tools },
      model: scriptedModelFor,
    });
    expect(report.results[0]?.scores.llm_judge).toEqual({
      status: 'scored',
      score: 0.5,
      passed: false,
      label: 'partial',
      detail: 'Right city, missing detail.',
      // 50 input and 7 output tokens at gemini-2.5-flash's list price ($0.30 / $2.50 per million).
      usage: {
        inputTokens: 50,
        outputTokens: 7,
        thoughtTokens: 0,
        totalTokens: 57,
        costUsd: expect.closeTo(0.0000325, 12),
      },
    });
    expect(report.summary.tokens.judge).toBe(57);
    expect(report.summary.cost_usd?.judge).toBeCloseTo(0.0000325, 12);
    // The judge saw the task, the expected answer, the agent's answer and its tools.
    const asked = JSON.stringify(judgeModels[0]?.requests[0]?.messages);
    for (const text of ['Capital of France?', 'Paris', 'It is Paris.', 'echo'])
      expect(asked).toContain(text);
  });

  it('reports a judge failure as an error, left out of the mean, never as a zero', async () => {
    const judge = await loadJudgeDefinition();
    const scorer = llmJudgeScorer({
      definition: judge,
      // The scripted judge answers in prose and never calls complete_task.
      model: () =>
        new ScriptedModel([
          { parts: [{ text: 'Looks fine to me.' }] },
          { parts: [{ text: 'Still fine.' }] },
        ]),
    });
    const report = await runEval(assistant, rows.slice(0, 2), {
      scorers: [scorer],
      run: { tools },
      model: scriptedModelFor,
    });
    const first = report.results[0]?.scores.llm_judge;
    expect(first).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/^judge ERROR: /),
    });
    expect(report.summary.scorers.llm_judge).toEqual({
      mean: null,
      pass_rate: null,
      scored: 0,
      passed: 0,
      skipped: 0,
      errors: 2,
    });
  });

  it('reports a judge that cannot run at all (no model reachable) as an error', async () => {
    const judge = await loadJudgeDefinition();
    const scorer = llmJudgeScorer({
      definition: judge,
      resolveModel: () => {
        throw new Error('no key for the judge');
      },
    });
    const report = await runEval(assistant, [rows[0]!], {
      scorers: [scorer],
      run: { tools },
      model: scriptedModelFor,
    });
    expect(report.results[0]?.scores.llm_judge).toEqual({
      status: 'error',
      error: 'judge could not run: no key for the judge',
    });
  });
});
