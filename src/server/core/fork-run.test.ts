import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../errors/cadre-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';

let dir: string;
let store: Store;
let service: RunService;
let ann: string;
let eve: string;
let model: ScriptedModel;

/** Lists the workspace once, then answers with what it saw and the prompt it was given. */
function lister(request: ModelRequest): ScriptedTurn {
  const first = request.messages[0]?.parts.find((p) => p.kind === 'text');
  const prompt = first?.kind === 'text' ? first.text : '';
  const listed = request.messages.some((m) => m.parts.some((p) => p.kind === 'function_response'));
  return listed
    ? { parts: [{ text: `Listed for "${prompt}".` }] }
    : { parts: [{ functionCall: { name: 'ls', args: { path: '.' } } }] };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-fork-'));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents', 'lister.yaml'),
    'name: lister\ndescription: Lists files.\npromptConfig:\n  systemPrompt: List files.\ntoolConfig:\n  tools: [ls]\n',
  );
  await writeFile(join(dir, 'notes.txt'), 'hello\n');
  store = await openStore({ url: join(dir, 'cadre.db') });
  model = new ScriptedModel(lister);
  service = await createRunService({ store, cwd: dir, env: { HOME: dir }, modelClient: model });
  ann = (await store.auth.ensureUser('ann')).id;
  eve = (await store.auth.ensureUser('eve')).id;
});
afterEach(async () => {
  await service.close();
  await store.close();
});

describe('trajectories and forks over the server core (scripted model, real ls, SQLite)', () => {
  it('shows a recorded run step by step: text, the tool call and its result', async () => {
    const run = await service.run({
      userId: ann,
      prompt: 'What is here?',
      agent: 'lister',
      record: true,
    });
    expect(run.status).toBe('completed');
    const view = await service.trajectory(ann, run.runId);
    expect(view).toMatchObject({ runId: run.runId, agent: 'lister', prompt: 'What is here?' });
    expect(view?.steps.map((s) => [s.index, s.forkable, s.path])).toEqual([
      [0, true, ['lister']],
      [1, true, ['lister']],
    ]);
    const call = view?.steps[0]?.calls[0];
    expect(call).toMatchObject({ tool: 'ls', args: { path: '.' }, result: { status: 'ok' } });
    expect(call?.result.status === 'ok' && call.result.output).toContain('notes.txt');
    expect(view?.steps[1]?.text).toBe('Listed for "What is here?".');
  });

  it("is the owner's only, and says when a run was not recorded", async () => {
    const recorded = await service.run({
      userId: ann,
      prompt: 'Hi',
      agent: 'lister',
      record: true,
    });
    expect(await service.trajectory(eve, recorded.runId)).toBeUndefined();
    expect(
      await service.forkRun({ userId: eve, runId: recorded.runId, step: 0, prompt: 'x' }),
    ).toBeUndefined();
    const plain = await service.run({ userId: ann, prompt: 'Hi', agent: 'lister' });
    await expect(service.trajectory(ann, plain.runId)).rejects.toThrow(NotFoundError);
    await expect(service.trajectory(ann, plain.runId)).rejects.toThrow(/not recorded/);
  });

  it('forks from a step with an edited prompt: earlier steps kept as recorded, the model asked once', async () => {
    const run = await service.run({
      userId: ann,
      prompt: 'What is here?',
      agent: 'lister',
      record: true,
    });
    const before = model.requests.length;
    const fork = await service.forkRun({
      userId: ann,
      runId: run.runId,
      step: 1,
      prompt: 'And now?',
    });
    expect(fork).toMatchObject({ status: 'completed', summary: 'Listed for "And now?".' });
    // Only step 1 was asked again; the ls call and its output came from the recording.
    expect(model.requests.length - before).toBe(1);
    const asked = model.requests.at(-1);
    expect(asked?.messages.map((m) => m.parts.map((p) => p.kind).join())).toEqual([
      'text',
      'function_call',
      'function_response',
    ]);
    expect(asked?.messages[0]?.parts[0]).toEqual({ kind: 'text', text: 'And now?' });
    // A new thread holds the edited prompt, and the fork is recorded in turn.
    expect(fork?.threadId).not.toBe(run.threadId);
    const thread = await service.getThread(ann, fork?.threadId ?? '');
    expect(thread?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'And now?'],
      ['assistant', 'Listed for "And now?".'],
    ]);
    const forked = await service.trajectory(ann, fork?.runId ?? '');
    expect(forked?.prompt).toBe('And now?');
  });

  it('forks from the first step: a new run of the edited prompt', async () => {
    const run = await service.run({
      userId: ann,
      prompt: 'What is here?',
      agent: 'lister',
      record: true,
    });
    const fork = await service.forkRun({
      userId: ann,
      runId: run.runId,
      step: 0,
      prompt: 'Look again',
    });
    expect(fork?.summary).toBe('Listed for "Look again".');
  });

  it('refuses a step the run does not have', async () => {
    const run = await service.run({ userId: ann, prompt: 'Hi', agent: 'lister', record: true });
    const fork = service.forkRun({ userId: ann, runId: run.runId, step: 5, prompt: 'x' });
    await expect(fork).rejects.toThrow(ValidationError);
    await expect(fork).rejects.toThrow(/step: must be a step of the run's own agent: 0, 1/);
  });
});
