import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedModel } from '../src/model/scripted-model.js';
import { openStore } from '../src/store/open-store.js';
import { seedPendingApprovals } from '../src/store/testing/seed-pending.js';
import { createRunService } from '../src/server/core/create-run-service.js';
import { startTestServer } from '../src/server/http/testing/test-support.js';

/**
 * Latency of GET /api/agent/approvals/pending with 10,000 pending (rows
 * seeded through the store), over real HTTP and a SQLite file: the first
 * page, a page after a cursor, and the largest page. Median of 50 each.
 */
const PENDING = Number(process.env.CADRE_BENCH_PENDING ?? 10_000);
const ROUNDS = 50;

const dir = await mkdtemp(join(tmpdir(), 'cadre-pending-bench-'));
const store = await openStore({ url: join(dir, 'cadre.db') });
const service = await createRunService({
  store,
  cwd: dir,
  env: { HOME: dir },
  modelClient: new ScriptedModel([]),
  worker: false,
});
const server = await startTestServer(service, { store });
try {
  const seeded = await seedPendingApprovals(store, 'ann', PENDING);
  const { token } = await store.auth.createToken(seeded.userId);
  const get = async (query: string): Promise<{ ms: number; bytes: number; next: string }> => {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/agent/approvals/pending${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    const ms = performance.now() - started;
    return {
      ms,
      bytes: text.length,
      next: (JSON.parse(text) as { nextCursor: string }).nextCursor,
    };
  };
  const { next } = await get('');
  for (const [name, query] of [
    ['first page (50)', ''],
    ['page after a cursor (50)', `?cursor=${next}`],
    ['largest page (200)', '?limit=200'],
  ] as const) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < ROUNDS; i++)
      ({ bytes } = await get(query).then((r) => (times.push(r.ms), r)));
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
    console.log(
      `${PENDING} pending, ${name}: median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, ${bytes} bytes`,
    );
  }
} finally {
  await server.close();
  await service.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
