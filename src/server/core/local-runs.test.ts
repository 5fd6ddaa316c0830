import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { openKyselyStore } from '../../store/open-store.js';
import { createQueryCounter, type QueryCounter } from '../../store/query-counter.js';
import type { KyselyStore } from '../../store/kysely-store.js';
import type { Store } from '../../store/types.js';
import { afterWrites, heardWrites } from '../../testing/heard-writes.js';
import type { RunService } from '../run-service-types.js';
import type { RunWorkerOptions } from '../worker/worker-types.js';
import { createRunService } from './create-run-service.js';

let dir: string;
const opened: Array<{ store: KyselyStore; service: RunService }> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-local-runs-'));
});
afterEach(async () => {
  for (const { service, store } of opened.splice(0)) {
    await service.close();
    await store.close();
  }
});

async function open(
  model: ScriptedModel,
  worker: Partial<RunWorkerOptions> = {},
  counter?: QueryCounter,
) {
  const store = await openKyselyStore({
    url: join(dir, 'cadre.db'),
    ...(counter ? { queryCounter: counter } : {}),
  });
  // The service writes through this: the test hears each write instead of polling the store.
  const writes = heardWrites(store);
  const service = await createRunService({
    store: writes.store,
    cwd: dir,
    env: { HOME: dir },
    modelClient: model,
    worker: { leaseMs: 1_000, pollMs: 50, ...worker },
    pollMs: 50,
  });
  opened.push({ store, service });
  const user = await store.auth.ensureUser('ann');
  return { store, service, userId: user.id, nextWrite: writes.next };
}

describe('runs started in this process (scripted model, real SQLite)', () => {
  it('a run that ends at once is stored whole: one commit, at most 8 statements', async () => {
    const counter = createQueryCounter();
    const { service, store, userId } = await open(
      new ScriptedModel(() => ({ parts: [{ text: 'Hello Ann.' }] })),
      // "At once" is measured against storeAfterMs, and the queue poll waits: a loaded machine
      // must turn neither the run nor a poll landing inside it into a second commit.
      { storeAfterMs: 60_000, pollMs: 60_000 },
      counter,
    );
    await service.run({ userId, prompt: 'Warm up' }); // the definition is stored once, here
    const before = { ...counter.counts };
    const response = await service.run({ userId, prompt: 'Hi' });
    expect(response).toMatchObject({ status: 'completed', summary: 'Hello Ann.', actions: [] });
    expect(counter.counts.commits - before.commits).toBe(1);
    expect(counter.counts.statements - before.statements).toBeLessThanOrEqual(8);
    // Numbered by the process that drove it, with no gaps.
    const stored = await store.events.read(response.runId);
    expect(stored.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(stored.map((e) => e.type)).toContain('run_started');
    // A second prompt in the same thread reads its history once and sees the first exchange.
    const again = await service.run({ userId, prompt: 'Again', threadId: response.threadId });
    expect(again.threadId).toBe(response.threadId);
    const thread = await service.getThread(userId, response.threadId);
    expect(thread?.messages.map((m) => [m.seq, m.role, m.content])).toEqual([
      [1, 'user', 'Hi'],
      [2, 'assistant', 'Hello Ann.'],
      [3, 'user', 'Again'],
      [4, 'assistant', 'Hello Ann.'],
    ]);
  });

  it('a run still going after storeAfterMs is in the store, owned and leased, before it ends', async () => {
    const { service, store, userId, nextWrite } = await open(
      new ScriptedModel([{ parts: [{ text: 'Slowly.' }], delayMs: 600 }]),
      { storeAfterMs: 50 },
    );
    let started = (_runId: string): void => undefined;
    const announced = new Promise<string>((resolve) => (started = resolve));
    const running = service.run(
      { userId, prompt: 'Take a while' },
      {
        onStarted: (ids) => started(ids.runId),
      },
    );
    const runId = await announced;
    // Looked at again after each write the service makes, not on a timer.
    const stored = await afterWrites(nextWrite, async () => {
      const run = await store.runs.get(runId, userId);
      return run?.status === 'planning' ? run : undefined;
    });
    expect(stored?.owner).toBeDefined();
    expect(stored?.leaseUntil).toBeDefined();
    expect(await running).toMatchObject({ status: 'completed', summary: 'Slowly.' });
    expect((await store.runs.get(runId, userId))?.status).toBe('completed');
  });

  it('a streamed run is stored before its ids are announced, and its events follow them', async () => {
    const { service, store, userId } = await open(
      new ScriptedModel([{ parts: [{ text: 'Hello.' }] }]),
      { storeAfterMs: 60_000 },
    );
    const seen: string[] = [];
    let found: Promise<unknown> | undefined;
    const response = await service.run(
      { userId, prompt: 'Stream it' },
      {
        onStarted: (ids) => {
          seen.push('started');
          // Another process asked at this moment would find the run.
          found = store.runs.get(ids.runId, userId);
        },
        onEvent: (event) => seen.push(`${event.seq}`),
      },
    );
    expect(await found).toMatchObject({ id: response.runId });
    expect(seen[0]).toBe('started');
    expect(seen.slice(1)).toEqual(seen.slice(1).map((_, i) => `${i + 1}`));
    const stored = await store.events.read(response.runId);
    expect(stored.map((e) => `${e.seq}`)).toEqual(seen.slice(1));
  });

  it('a process that drains stores what it has not stored yet and hands it over to another', async () => {
    let calls = 0;
    let asked = (): void => undefined;
    const inModel = new Promise<void>((resolve) => (asked = resolve));
    const model = new ScriptedModel(() => {
      asked();
      return ++calls === 1
        ? { parts: [{ text: 'never' }], delayMs: 30_000 }
        : { parts: [{ text: 'Finished elsewhere.' }] };
    });
    const first = await open(model, { storeAfterMs: 60_000 });
    const running = first.service.run({ userId: first.userId, prompt: 'Hand me over' });
    running.catch(() => undefined);
    await inModel;
    expect(calls).toBe(1);
    const runs = () => first.store.db.selectFrom('runs').select(['id', 'status']).execute();
    expect(await runs()).toEqual([]);
    expect(await first.service.drain(0)).toEqual({ finished: 0, handedOver: 1 });
    const [handed] = await runs();
    const runId = handed?.id ?? '';
    // Stored by the drain with its start job and an expired lease: another process takes it.
    const second = await open(model);
    const followed = await second.service.followRun(first.userId, runId, 0, {});
    expect(followed).toMatchObject({ status: 'completed', summary: 'Finished elsewhere.' });
  });

  it('a run that cannot be stored fails its request with the reason, not "no such run"', async () => {
    const { store, userId } = await open(new ScriptedModel([]));
    const failing: Store = {
      ...store,
      queue: { ...store.queue, save: () => Promise.reject(new Error('The disk is full.')) },
    };
    const service = await createRunService({
      store: failing,
      cwd: dir,
      env: { HOME: dir },
      modelClient: new ScriptedModel(() => ({ parts: [{ text: 'Hello.' }] })),
      onError: () => undefined,
    });
    try {
      await expect(service.run({ userId, prompt: 'Hi' })).rejects.toThrow('The disk is full.');
      // A streamed run is stored first: its request fails before any id is announced.
      let announced = false;
      await expect(
        service.run({ userId, prompt: 'Hi' }, { onStarted: () => (announced = true) }),
      ).rejects.toThrow('The disk is full.');
      expect(announced).toBe(false);
    } finally {
      await service.close();
    }
  });
});
