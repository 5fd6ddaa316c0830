import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/validation-error.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { ManualClock } from '../../util/testing/manual-clock.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';

let dir: string;
let store: Store;
let service: RunService;
let ann: string;
let model: ScriptedModel;

const SUMMARIZER = [
  'name: summarizer',
  'description: Summarizes a file.',
  'examples: [Summarize README.md]',
  'inputConfig:',
  '  inputs:',
  '    path: { type: string, description: File to summarize, required: true }',
  '    lines: { type: integer, description: How many lines }',
  '    tags: { type: "string[]" }',
  'promptConfig:',
  '  systemPrompt: You summarize files.',
  '  query: Summarize ${path} in ${lines} lines.',
  '',
].join('\n');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-inputs-'));
  await mkdir(join(dir, 'agents'));
  await writeFile(join(dir, 'agents', 'summarizer.yaml'), SUMMARIZER);
  store = await openStore({ url: join(dir, 'cadre.db') });
  model = new ScriptedModel(() => ({ parts: [{ text: 'A summary.' }] }));
  service = await createRunService({ store, cwd: dir, env: { HOME: dir }, modelClient: model });
  ann = (await store.auth.ensureUser('ann')).id;
});
afterEach(async () => {
  await service.close();
  await store.close();
});

describe('structured inputs over the server core', () => {
  it('lists the default agent first, named, and each agent with its inputs and examples', async () => {
    const agents = await service.listAgents();
    expect(agents[0]).toMatchObject({
      name: 'assistant',
      displayName: 'Assistant',
      default: true,
      origin: 'default',
      examples: expect.arrayContaining([
        'Book a design review with ana@example.com next Tuesday at 10:00',
      ]) as unknown,
    });
    expect(agents[0]?.inputs).toBeUndefined();
    expect(agents.find((a) => a.name === 'summarizer')).toMatchObject({
      examples: ['Summarize README.md'],
      inputs: [
        { name: 'path', type: 'string', required: true, description: 'File to summarize' },
        { name: 'lines', type: 'integer', required: false, description: 'How many lines' },
        { name: 'tags', type: 'string[]', required: false },
      ],
    });
    expect(agents.filter((a) => a.default)).toHaveLength(1);
  });

  it('runs the default agent by its own name too', async () => {
    const run = await service.run({ userId: ann, prompt: 'Hi', agent: 'assistant' });
    expect(run.status).toBe('completed');
  });

  it('runs an agent on its inputs: the query is filled from them', async () => {
    const run = await service.run({
      userId: ann,
      prompt: 'path: README.md',
      agent: 'summarizer',
      inputs: { path: 'README.md', lines: 3, tags: ['docs'] },
    });
    expect(run.status).toBe('completed');
    const last = model.requests.at(-1)?.messages.at(-1)?.parts[0];
    expect(last).toEqual({ kind: 'text', text: 'Summarize README.md in 3 lines.' });
    const events = (await service.readEvents(ann, run.runId, 0)) ?? [];
    expect(events.find((e) => e.type === 'run_started')?.event.data).toMatchObject({
      inputs: { path: 'README.md', lines: 3, tags: ['docs'] },
    });
  });

  it('keeps the inputs of a queued run for the worker that takes it', async () => {
    await service.close();
    // One run at a time: the second waits in the queue, stored, until the first ends.
    model = new ScriptedModel(() => ({ parts: [{ text: 'A summary.' }], delayMs: 150 }));
    service = await createRunService({
      store,
      cwd: dir,
      env: { HOME: dir },
      modelClient: model,
      // Polls on a clock that never moves: the queued run is taken when the first one ends
      // (room freed), and its request hears it ended, by events alone.
      clock: new ManualClock(),
      worker: { concurrency: 1 },
    });
    const runs = await Promise.all(
      ['a.md', 'b.md'].map((path) =>
        service.run({ userId: ann, prompt: path, agent: 'summarizer', inputs: { path, lines: 2 } }),
      ),
    );
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed']);
    const texts = model.requests.map((r) => r.messages.at(-1)?.parts[0]);
    expect(texts).toEqual([
      { kind: 'text', text: 'Summarize a.md in 2 lines.' },
      { kind: 'text', text: 'Summarize b.md in 2 lines.' },
    ]);
  });

  it('refuses inputs that do not fit before anything is stored', async () => {
    const bad = service.run({
      userId: ann,
      prompt: 'x',
      agent: 'summarizer',
      inputs: { lines: 'three' },
    });
    await expect(bad).rejects.toThrow(ValidationError);
    await expect(bad).rejects.toThrow(/inputs.*path/);
    expect(await service.listThreads(ann)).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });
});
