import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../errors/store-error.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../../model/types.js';
import { openKyselyStore, openStore } from '../../store/open-store.js';
import { TestPostgres } from '../../store/testing/embedded-postgres.js';
import type { Store } from '../../store/types.js';
import { afterWrites, heardWrites } from '../../testing/heard-writes.js';
import type { Clock } from '../../util/clock.js';
import { ManualClock } from '../../util/testing/manual-clock.js';
import { createRunService } from '../core/create-run-service.js';
import { buildServer } from '../http/build-server.js';
import type { RunService } from '../run-service-types.js';

const OUTAGE_MS = 4_000;
const postgres = new TestPostgres();

beforeAll(() => postgres.start(), 60_000);
afterAll(() => postgres.stop(), 30_000);

/** A latch the test opens when it chooses. */
function latch(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * A model that holds each conversation's answer until the test opens its
 * gate (the prompt names the gate), so a run is mid-step exactly while the
 * database is down. `calls` counts the turns asked per gate.
 */
function gatedModel(gates: Record<string, { opened: Promise<void> }>) {
  const calls: Record<string, number> = {};
  const asked = new Map<string, () => void>();
  const client: ModelClient = {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider: 'scripted',
    async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
      const text = JSON.stringify(request.messages);
      const name = Object.keys(gates).find((gate) => text.includes(gate)) ?? '';
      calls[name] = (calls[name] ?? 0) + 1;
      asked.get(name)?.();
      const aborted = new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      );
      await Promise.race([gates[name]?.opened, aborted]);
      yield { type: 'text', text: `Done ${name}.` };
    },
  };
  const wasAsked = (name: string): Promise<void> =>
    (calls[name] ?? 0) > 0 ? Promise.resolve() : new Promise((r) => asked.set(name, r));
  return { client, calls, wasAsked };
}

/**
 * Polls `check` until it returns a value, within `ms`. Kept on real time: what
 * it waits for is a real PostgreSQL coming back and the worker's real backoff,
 * whose latency this file measures.
 */
async function eventually<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `promise`, or a rejection once `ms` have passed (a bound for a clear failure, not a wait). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * What would have ended the process: an 'error' event nobody listens to is
 * thrown, uncaught. Recorded here (so the test can say so) instead.
 */
function watchCrashes(): { seen: unknown[]; stop: () => void } {
  const seen: unknown[] = [];
  const record = (error: unknown): void => void seen.push(error);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  return {
    seen,
    stop: () => {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    },
  };
}

type Line = Record<string, unknown>;

/** Reads an NDJSON response line by line; `next()` waits for the next one (undefined at the end). */
function lineReader(response: Response): { next: () => Promise<Line | undefined> } {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n');
        if (end >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          if (line.trim()) return JSON.parse(line) as Line;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
  };
}

async function lineWhere(
  reader: { next: () => Promise<Line | undefined> },
  match: (line: Line) => boolean,
): Promise<Line> {
  for (;;) {
    const line = await reader.next();
    if (!line) throw new Error('stream ended before the expected line');
    if (match(line)) return line;
  }
}

interface Process {
  url: string;
  store: Store;
  service: RunService;
  /** Resolves after the service's next write (a run stored, events written). */
  nextWrite: () => Promise<void>;
  close(): Promise<void>;
}

/** One server process's parts, in this process: store, core (with or without worker), HTTP on 127.0.0.1. */
async function serverOn(
  url: string,
  options: {
    cwd: string;
    model: ModelClient;
    worker: boolean;
    pollMs: number;
    clock?: Clock;
    errors: unknown[];
  },
): Promise<Process> {
  const store = await openStore({ url });
  const writes = heardWrites(store);
  const service = await createRunService({
    store: writes.store,
    cwd: options.cwd,
    env: { HOME: options.cwd },
    modelClient: options.model,
    worker: options.worker ? { leaseMs: 10_000, pollMs: 200 } : false,
    pollMs: options.pollMs,
    ...(options.clock ? { clock: options.clock } : {}),
    onError: (error) => options.errors.push(error),
  });
  const app = buildServer({
    service,
    store,
    log: { level: 'silent' },
    tokenCache: { ttlMs: 0, max: 1 },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    store,
    service,
    nextWrite: writes.next,
    async close() {
      await app.close();
      await service.close();
      await store.close();
    },
  };
}

describe('PostgreSQL stopped under a store (real PostgreSQL)', () => {
  it('a connection held mid-transaction when the server stops fails its transaction, not the process', async () => {
    const store = await openKyselyStore({ url: await postgres.createDatabase('cadre_held') });
    const crashes = watchCrashes();
    try {
      const inside = latch();
      const proceed = latch();
      const transaction = store.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        inside.open();
        await proceed.opened;
        await sql`select 1`.execute(trx);
      });
      const failed = transaction.then(
        () => undefined,
        (error: unknown) => error,
      );
      await inside.opened;
      await postgres.halt();
      // Another statement meanwhile: refused, and by then the held connection has seen its end.
      await expect(store.runs.getDefinition('x')).rejects.toBeInstanceOf(StoreUnavailableError);
      proceed.open();
      expect(await failed).toBeInstanceOf(StoreUnavailableError);
      await postgres.resume();
      await expect(eventually(() => store.runs.getDefinition('x').then(() => true))).resolves.toBe(
        true,
      );
      expect(crashes.seen).toEqual([]);
    } finally {
      crashes.stop();
      await store.close();
    }
  }, 30_000);
});

describe('PostgreSQL stopped for 4 s under a server and its worker (real PostgreSQL, in-process servers)', () => {
  it('nothing crashes, requests answer 503 store_unavailable, runs finish after the restart and LISTEN comes back', async () => {
    const url = await postgres.createDatabase('cadre_outage');
    const cwd = await mkdtemp(join(tmpdir(), 'cadre-outage-'));
    const alpha = latch();
    const beta = latch();
    const model = gatedModel({ alpha, beta });
    const crashes = watchCrashes();
    const workerErrors: unknown[] = [];
    // A: serves and drives runs. B: another process on the same database, no worker, and a poll
    // on a clock that never moves: only a notification (LISTEN) can bring it news.
    const a = await serverOn(url, {
      cwd,
      model: model.client,
      worker: true,
      pollMs: 100,
      errors: workerErrors,
    });
    const b = await serverOn(url, {
      cwd,
      model: model.client,
      worker: false,
      pollMs: 60_000,
      clock: new ManualClock(),
      errors: [],
    });
    try {
      const user = await a.store.auth.ensureUser('ann');
      const { token } = await a.store.auth.createToken(user.id);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const start = async (prompt: string) => {
        const response = await fetch(`${a.url}/api/agent/run/stream`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ prompt }),
        });
        const lines = lineReader(response);
        const status = await lineWhere(lines, (l) => l.type === 'status');
        const runId = status.runId as string;
        await model.wasAsked(prompt);
        // Stored with its first events (written a moment after they happen) before the database goes.
        await afterWrites(a.nextWrite, async () => {
          const events = await a.store.events.read(runId);
          return events.length > 0 ? events : undefined;
        });
        return { runId, lines };
      };
      const runAlpha = await start('alpha');
      const runBeta = await start('beta');

      await postgres.halt();
      const haltedAt = Date.now();

      // Requests during the outage: a stable 503, on both processes.
      for (const [base, path] of [
        [a.url, '/api/threads'],
        [b.url, `/api/runs/${runAlpha.runId}`],
      ] as const) {
        const response = await fetch(`${base}${path}`, { headers });
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual({
          ok: false,
          error: {
            code: 'store_unavailable',
            message: 'The database is unavailable; retry shortly.',
          },
        });
      }
      // Beta's step ends while the database is down: it cannot be recorded, and its stream says why.
      beta.open();
      const betaError = await lineWhere(runBeta.lines, (l) => l.type === 'error');
      expect(betaError.code).toBe('store_unavailable');

      // Real time on purpose: the outage's length is what this test puts the server through.
      await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - haltedAt))));
      await postgres.resume();
      const restartedAt = Date.now();

      // The first request that succeeds after the restart.
      await eventually(async () => {
        const response = await fetch(`${a.url}/api/threads`, { headers });
        return response.status === 200 ? true : undefined;
      });
      const requestRecoveryMs = Date.now() - restartedAt;
      // Beta is handed back and taken over: asked again, it completes.
      const betaRun = await eventually(async () => {
        const run = await a.store.runs.get(runBeta.runId, user.id);
        return run?.status === 'completed' ? run : undefined;
      });
      const runRecoveryMs = Date.now() - restartedAt;
      expect(betaRun.summary).toBe('Done beta.');
      expect(model.calls.beta).toBe(2);

      // B follows alpha, still mid-step: only a notification can tell it alpha ended.
      const follow = lineReader(
        await fetch(`${b.url}/api/runs/${runAlpha.runId}/stream?after=0`, { headers }),
      );
      // An event line: B has read the log, so its wait for news is in place.
      await lineWhere(follow, (l) => l.type !== 'status');
      alpha.open();
      const openedAt = Date.now();
      const followed = await within(
        10_000,
        lineWhere(follow, (l) => l.type === 'result'),
      );
      expect((followed.result as { status: string }).status).toBe('completed');
      const notifiedMs = Date.now() - openedAt;
      // Alpha's own stream, started before the outage, ends with its result too.
      const alphaResult = await lineWhere(runAlpha.lines, (l) => l.type === 'result');
      expect((alphaResult.result as { summary: string }).summary).toBe('Done alpha.');

      // The worker reported the outage (as such) and nothing was thrown unhandled.
      expect(workerErrors.some((e) => e instanceof StoreUnavailableError)).toBe(true);
      expect(crashes.seen).toEqual([]);
      console.info(
        `PostgreSQL down ${OUTAGE_MS} ms: first request answered ${requestRecoveryMs} ms after the restart, ` +
          `interrupted run completed ${runRecoveryMs} ms after it; ` +
          `the other process (which never polls) heard of the next run's end ${notifiedMs} ms after it`,
      );
    } finally {
      crashes.stop();
      await b.close();
      await a.close();
    }
  }, 60_000);
});
