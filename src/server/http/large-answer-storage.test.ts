import { mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { createRunService } from '../core/create-run-service.js';
import type { RunResponse, RunService } from '../run-service-types.js';
import type { RunResult } from '../../contracts/run-result.js';
import { startTestServer, type TestServer } from './testing/test-support.js';
import { ANSWER, PIECES, largeAnswerTurn } from './testing/large-answer.js';

let dir: string;
let file: string;
let store: Store;
let service: RunService;
let server: TestServer;
let token: string;
let userId: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-large-answer-')));
  file = join(dir, 'cadre.db');
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents/talker.yaml'),
    'name: talker\ndescription: Talks at length.\ntoolConfig:\n  tools: []\n',
  );
  const model = new ScriptedModel([largeAnswerTurn()]);
  store = await openStore({ url: file });
  service = await createRunService({ store, cwd: dir, env: { HOME: dir }, modelClient: model });
  const user = await store.auth.ensureUser('ann');
  userId = user.id;
  token = (await store.auth.createToken(user.id)).token;
  server = await startTestServer(service, { store });
}, 30_000);
afterAll(async () => {
  await server.close();
  await service.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const fileSize = (path: string): Promise<number> =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );

/** The NDJSON lines of a response, parsed. */
async function lines(response: Response): Promise<unknown[]> {
  return (await response.text())
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/**
 * Asks /healthz every 25 ms until stopped; the slowest answer in ms. Real
 * time on purpose: how long the server stays unresponsive while it stores a
 * large answer is the figure this test reports.
 */
function watchHealth(): { stop: () => Promise<number> } {
  let slowest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${server.url}/healthz`);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return slowest;
    },
  };
}

describe('a 10 MB answer through cadre serve on SQLite (scripted model)', () => {
  it('is stored about once: db and WAL, before a checkpoint and after, stay under 2× the answer, and every reader still gets it whole', async () => {
    const health = watchHealth();
    const response = await fetch(`${server.url}/api/agent/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Talk', agent: 'talker' }),
    });
    const answered = (await response.json()) as RunResponse;
    const slowestHealthMs = await health.stop();
    expect(answered.status).toBe('completed');
    expect(answered.summary).toBe(ANSWER);

    // A reader of the stored events gets the answer back from the deltas, and whole in the result.
    const stored = (await lines(
      await fetch(`${server.url}/api/runs/${answered.runId}/events`, {
        headers: { authorization: `Bearer ${token}` },
      }),
    )) as CadreEvent[];
    const deltas = stored.filter((e) => e.type === 'text_delta' && e.depth === 0);
    expect(deltas.map((e) => String(e.data.text)).join('')).toBe(ANSWER);
    expect(deltas.map((e) => e.message).join('')).toBe(ANSWER);
    // Merged into bounded pieces, not one row per token.
    expect(deltas.length).toBeLessThan(PIECES / 10);
    const final = stored.find((e) => e.type === 'final_result')?.data.result as RunResult;
    expect(final.final_message).toBe(ANSWER);
    expect(final.content).toBe(ANSWER);
    expect(final.output).toBe(ANSWER);
    const thread = await service.getThread(userId, answered.threadId);
    expect(thread?.messages.at(-1)?.content).toBe(ANSWER);
    const view = (await (
      await fetch(`${server.url}/api/runs/${answered.runId}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { run: { summary: string } };
    expect(view.run.summary).toBe(ANSWER);

    const walBefore = await fileSize(`${file}-wal`);
    // As the server left it: the deltas point into the reply, and the WAL was emptied after it.
    expect((await fileSize(file)) + walBefore).toBeLessThan(2 * ANSWER.length);
    await server.close();
    await service.close();
    await store.close();
    const { default: Database } = await import('libsql');
    const db = new Database(file);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const onDisk = (await fileSize(file)) + (await fileSize(`${file}-wal`));
    console.info(
      `10 MB answer (${ANSWER.length} characters): ${onDisk} bytes on disk after a checkpoint (WAL before it: ${walBefore}); slowest /healthz ${Math.round(slowestHealthMs)} ms`,
    );
    expect(onDisk).toBeLessThan(2 * ANSWER.length);
  }, 120_000);
});
