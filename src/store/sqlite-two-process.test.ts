import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, expect, it } from 'vitest';
import { openKyselyStore } from './open-store.js';
import { seedRun } from './conformance/conformance-store.js';

const dirs: string[] = [];
const auditKey = randomBytes(32);
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Starts writers in worker threads: each has its own connection and its own
 * blocking busy handler, as a second process would (two connections on one
 * thread would deadlock). Resolves once all are ready, with their outcomes.
 */
async function startWriters(
  names: readonly string[],
  workerData: Record<string, unknown>,
): Promise<Promise<unknown>[]> {
  const workers = names.map(
    (name) =>
      new Worker(new URL('./testing/sqlite-writer-worker.mjs', import.meta.url), {
        workerData: { ...workerData, name, auditKey: auditKey.toString('hex') },
      }),
  );
  const outcome = (worker: Worker) =>
    new Promise((resolve, reject) => {
      worker.on('message', (message: { ready?: boolean }) => {
        if (!message.ready) resolve(message);
      });
      worker.once('error', reject);
    });
  const ready = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
  const outcomes = workers.map(outcome);
  await Promise.all(workers.map(ready));
  for (const worker of workers) worker.postMessage('go');
  return outcomes;
}

it('RACE: two writers on one SQLite file form one audit chain and one event sequence', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cadre-sqlite-2p-'));
  dirs.push(dir);
  const file = path.join(dir, 'cadre.db');
  const store = await openKyselyStore({ url: file, auditKey });
  const { run } = await seedRun(store);
  const count = 100;
  const results = await Promise.all(
    await startWriters(['left', 'right'], { file, runId: run.id, count }),
  );
  expect(results).toEqual([{ ok: true }, { ok: true }]);
  expect(await store.audit.verify()).toEqual({ ok: true, count: 2 * count });
  const seqs = (await store.events.read(run.id, { limit: 1000 })).map((e) => e.seq);
  expect(seqs).toEqual(Array.from({ length: 2 * count }, (_, i) => i + 1));
  // The writers really took turns (otherwise the race was never run).
  const writers = (await store.audit.list({ limit: 1000 })).map((e) => e.message.split(' ')[0]);
  const turns = writers.filter((name, i) => i > 0 && name !== writers[i - 1]).length;
  expect(turns).toBeGreaterThan(10);
  await store.close();
});

it('several processes opening a fresh SQLite file at once all migrate it safely', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cadre-sqlite-2p-'));
  dirs.push(dir);
  const file = path.join(dir, 'cadre.db');
  const names = ['a', 'b', 'c', 'd'];
  const results = await Promise.all(await startWriters(names, { file, count: 5 }));
  expect(results).toEqual(names.map(() => ({ ok: true })));
  const store = await openKyselyStore({ url: file, auditKey });
  expect(await store.audit.verify()).toEqual({ ok: true, count: 20 });
  await store.close();
});
