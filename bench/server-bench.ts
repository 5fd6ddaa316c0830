import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { LoadJob, LoadResult } from './load-clients.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedModel, type ScriptedTurn } from '../src/model/scripted-model.js';
import type { ModelRequest } from '../src/model/types.js';
import { createRunService } from '../src/server/core/create-run-service.js';
import { buildServer } from '../src/server/http/build-server.js';
import { openStore } from '../src/store/open-store.js';
import { TestPostgres } from '../src/store/testing/embedded-postgres.js';
import type { Store } from '../src/store/types.js';

const CLIENTS = 50;
const SECONDS = 8;

/** A 3-turn agent: two real `ls` calls, then an answer. The model is scripted: no network. */
function model(): ScriptedModel {
  const calls = (r: ModelRequest): number =>
    r.messages.filter((m) => m.parts.some((p) => p.kind === 'function_response')).length;
  return new ScriptedModel(
    (r): ScriptedTurn =>
      calls(r) < 2
        ? { parts: [{ functionCall: { name: 'ls', args: { path: '.' } } }] }
        : { parts: [{ text: 'Two folders looked at.' }] },
    { recordRequests: false },
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(label: string, store: Store): Promise<void> {
  const cwd = await mkdtemp(join(tmpdir(), 'cadre-bench-server-'));
  await mkdir(join(cwd, 'agents'));
  await writeFile(
    join(cwd, 'agents/bench.yaml'),
    'name: bench\ndescription: Bench\ntoolConfig:\n  tools: [ls]\nrunConfig:\n  max_turns: 5\n',
  );
  const service = await createRunService({ store, cwd, env: { HOME: cwd }, modelClient: model() });
  const app = buildServer({
    service,
    store,
    log: { level: 'silent' },
    rateLimit: { max: 1_000_000, timeWindow: '1 minute' },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const user = await store.ensureUser('bench');
  const { token } = await store.createToken(user.id);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ prompt: 'Look around.', agent: 'bench' });

  const job: LoadJob = { base, headers, body, clients: CLIENTS, seconds: SECONDS };
  const { latencies, firstBytes, failures, seconds } = await new Promise<LoadResult>(
    (resolve, reject) => {
      const worker = new Worker(new URL('./load-clients.js', import.meta.url), { workerData: job });
      worker.once('message', (result: LoadResult) => {
        resolve(result);
        void worker.terminate();
      });
      worker.once('error', reject);
    },
  );
  await app.close();
  await service.close();
  latencies.sort((a, b) => a - b);
  firstBytes.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(12)} ${(latencies.length / seconds).toFixed(0).padStart(6)} runs/s   p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms   first NDJSON byte p50 ${percentile(firstBytes, 50).toFixed(1)} ms   failures ${failures}`,
  );
}

async function main(): Promise<void> {
  console.log(
    `Cadre server benchmark: ${CLIENTS} concurrent clients (in a worker thread) for ${SECONDS} s each, a scripted 3-turn agent over HTTP (node ${process.version})\n`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'cadre-bench-db-'));
  const sqlite = await openStore({ url: join(dir, 'cadre.db') });
  await measure('SQLite', sqlite);
  await sqlite.close();
  const postgres = new TestPostgres();
  await postgres.start();
  try {
    const store = await openStore({ url: await postgres.createDatabase('cadre_bench') });
    await measure('PostgreSQL', store);
    await store.close();
  } finally {
    await postgres.stop();
  }
}

await main();
