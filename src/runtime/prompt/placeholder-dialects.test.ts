import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/validation-error.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { loadDefinition } from '../../definition/load-definition.js';
import { run as runDefinition } from '../run-verbs.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-dialects-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loaded(name: string, lines: readonly string[]) {
  await writeFile(path.join(dir, name), lines.join('\n'));
  return (await loadDefinition(name, { cwd: dir, knownTools: [] })).definition;
}

/** Runs the file's agent with a model that answers once, and returns what the model was sent. */
async function firstRequest(
  name: string,
  lines: readonly string[],
  inputs: Record<string, unknown>,
) {
  const model = new ScriptedModel([{ parts: [{ text: 'done' }] }]);
  const result = await runDefinition(await loaded(name, lines), { model, inputs });
  expect(result.terminate_reason).toBe('GOAL');
  const request = model.requests[0];
  if (!request) throw new Error('the model was not called');
  return request;
}

describe('each dialect runs its prompt by its own placeholder rules', () => {
  it('Claude Code: a body with ${REPO} reaches the model unchanged', async () => {
    const body = 'Run `git -C ${REPO} log` and explain {this}.';
    const request = await firstRequest(
      'shell-notes.md',
      ['---', 'name: shell-notes', 'description: d', '---', body],
      { prompt: 'Summarise ${HOME}' },
    );
    expect(request.systemInstruction).toContain(body);
    expect(request.messages[0]?.parts[0]).toMatchObject({ text: 'Summarise ${HOME}' });
  });

  it('Gemini CLI: ${topic} is filled from an input the frontmatter declares', async () => {
    const request = await firstRequest(
      'topical.md',
      [
        '---',
        'name: topical',
        'description: d',
        'kind: local',
        'inputConfig:',
        '  inputs:',
        '    topic: {type: string, required: true}',
        '---',
        'Write about ${topic}.',
      ],
      { topic: 'tides' },
    );
    expect(request.systemInstruction).toContain('Write about tides.');
  });

  it("Gemini CLI: ${query} is the prompt (Gemini's name for a Markdown agent's input)", async () => {
    const request = await firstRequest(
      'researcher.md',
      ['---', 'name: researcher', 'description: d', 'kind: local', '---', 'Research: ${query}'],
      { prompt: 'deep sea vents' },
    );
    expect(request.systemInstruction).toContain('Research: deep sea vents');
  });

  it('Gemini CLI: a ${x} no input fills fails before any model call, naming it', async () => {
    const model = new ScriptedModel([]);
    const definition = await loaded('unfilled.md', [
      '---',
      'name: unfilled',
      'description: d',
      'kind: local',
      '---',
      'About ${topic}.',
    ]);
    const run = runDefinition(definition, { model, inputs: { prompt: 'p' } });
    await expect(run).rejects.toThrow(ValidationError);
    await expect(run).rejects.toThrow(/missing value for \$\{topic\}; available: query, prompt/);
    expect(model.requests).toHaveLength(0);
  });

  it('ADK: {prompt} and {notes?} fill, JSON stays as written, {artifact.x?} is empty (scripted)', async () => {
    const request = await firstRequest(
      'adk_agent.yaml',
      [
        'name: adk_agent',
        'description: d',
        'instruction: |',
        '  Task: {prompt}. Notes: {notes?}.',
        '  Reply as {"verdict": "ok"}; see [{artifact.spec?}].',
      ],
      { prompt: 'check it' },
    );
    expect(request.systemInstruction).toContain(
      'Task: check it. Notes: .\nReply as {"verdict": "ok"}; see [].',
    );
  });

  it('ADK: {var} reads RunOptions.state (what earlier agents stored with output_key)', async () => {
    const model = new ScriptedModel([{ parts: [{ text: 'done' }] }]);
    const definition = await loaded('with_state.yaml', [
      'name: with_state',
      'description: d',
      'instruction: Review {generated_code} for {prompt}.',
    ]);
    await runDefinition(definition, {
      model,
      inputs: { prompt: 'the user' },
      state: { generated_code: 'x = 1', prompt: 'not this' },
    });
    expect(model.requests[0]?.systemInstruction).toContain('Review x = 1 for the user.');
  });

  it('ADK: an agent run without the state its {var} reads fails naming it, before any model call (scripted)', async () => {
    const model = new ScriptedModel([{ parts: [{ text: 'ok' }] }]);
    const definition = await loaded('needs_state.yaml', [
      'name: needs_state',
      'description: d',
      'instruction: Review {generated_code}.',
    ]);
    const result = await runDefinition(definition, { model, inputs: { prompt: 'p' } }).catch(
      (error: unknown) => error,
    );
    expect(String(result instanceof Error ? result.message : JSON.stringify(result))).toContain(
      'missing value for {generated_code}',
    );
    expect(model.requests).toHaveLength(0);
  });
});
