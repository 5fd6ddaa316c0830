import { getEventListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../errors/cadre-error.js';
import type { TokenLookup } from './auth.js';
import { createRequestSignals } from './request-signals.js';
import {
  auth,
  fakeService,
  fakeTokens,
  startTestServer,
  type TestServer,
} from './testing/test-support.js';

let app: FastifyInstance | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await app?.close();
  await server?.close();
  app = undefined;
  server = undefined;
});

/** Fastify alone; kept-alive sockets are cut on close rather than waited for. */
function plainServer(): FastifyInstance {
  return Fastify({ forceCloseConnections: true });
}

/** What `lifetime` holds for others: abort listeners, and the WeakRefs `AbortSignal.any` leaves on it. */
function held(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find(
    (s) => s.description === 'kDependantSignals',
  );
  const dependants: unknown = key ? Reflect.get(signal, key) : undefined;
  // Node's own (primordial) Set is no `instanceof Set`.
  const size: unknown =
    typeof dependants === 'object' && dependants !== null ? Reflect.get(dependants, 'size') : 0;
  return getEventListeners(signal, 'abort').length + (typeof size === 'number' ? size : 0);
}

/** Counts arrivals; `reached(n)` resolves once there have been `n` (the test waits on that, not a loop). */
function arrivals(): { arrive: () => void; reached: (n: number) => Promise<void> } {
  let count = 0;
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  return {
    arrive() {
      count++;
      for (const waiter of waiting.filter((w) => w.n <= count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
    reached: (n) =>
      n <= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve })),
  };
}

/**
 * Resolves after `ms`, or rejects with the signal's reason when it aborts first — as a driver's
 * query would. A real timer is fine: the tests either give 0 ms or abort it long before its end.
 */
function query(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

describe('createRequestSignals (real HTTP on 127.0.0.1)', () => {
  it('holds one listener on the lifetime signal however many requests come and go', async () => {
    const lifetime = new AbortController();
    const signals = createRequestSignals(lifetime.signal);
    const seen: AbortSignal[] = [];
    const requests = arrivals();
    app = plainServer();
    app.get('/q', async (_request, reply) => {
      const signal = signals(reply);
      seen.push(signal);
      requests.arrive();
      // Code that listens for the whole request and never unsubscribes, as much does.
      signal.addEventListener('abort', () => undefined, { once: true });
      await query(signal, Number((_request.query as { ms?: string }).ms ?? 0));
      return { ok: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/q`;
    // held() reads a Node internal: prove it still sees what AbortSignal.any leaves behind.
    const probe = new AbortController().signal;
    const dependant = AbortSignal.any([probe]);
    expect(held(probe)).toBe(1);
    expect(dependant.aborted).toBe(false);
    const baseline = held(lifetime.signal);
    expect(baseline).toBe(1);
    for (let i = 0; i < 200; i++) {
      expect((await fetch(url)).status).toBe(200);
      expect(held(lifetime.signal)).toBe(baseline);
    }
    expect(seen.every((s) => !s.aborted)).toBe(true);

    // 50 in flight at once, then the server's lifetime ends: every one of them is aborted.
    const inFlight = Array.from({ length: 50 }, () => fetch(`${url}?ms=60000`));
    await requests.reached(250);
    expect(held(lifetime.signal)).toBe(baseline);
    lifetime.abort(new CancelledError('The server is shutting down.'));
    const statuses = await Promise.all(inFlight.map(async (res) => (await res).status));
    expect(statuses.every((status) => status === 500)).toBe(true);
    expect(seen.slice(200).every((s) => s.reason instanceof CancelledError)).toBe(true);
  });

  it('aborts when the client disconnects, not when the response completes', async () => {
    const signals = createRequestSignals(new AbortController().signal);
    let hanging: AbortSignal | undefined;
    const hangs = arrivals();
    let finished: AbortSignal | undefined;
    let sameTwice = false;
    app = plainServer();
    app.get('/done', async (_request, reply) => {
      finished = signals(reply);
      // Auth and the route ask for the same request's signal.
      sameTwice = signals(reply) === finished;
      return { ok: true };
    });
    app.get('/hang', async (_request, reply) => {
      hanging = signals(reply);
      hangs.arrive();
      await query(hanging, 60_000).catch(() => undefined);
      return { ok: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await (await fetch(`${base}/done`)).text();
    const client = new AbortController();
    const pending = fetch(`${base}/hang`, { signal: client.signal }).catch(() => undefined);
    await hangs.reached(1);
    client.abort();
    await pending;
    await new Promise<void>((resolve) =>
      hanging?.aborted ? resolve() : hanging?.addEventListener('abort', () => resolve()),
    );
    expect(hanging?.reason).toBeInstanceOf(CancelledError);
    expect(finished?.aborted).toBe(false);
    expect(sameTwice).toBe(true);
  });
});

describe('buildServer request signals', () => {
  it('gives each token lookup its own signal, released after, aborted when the server closes', async () => {
    const signals: AbortSignal[] = [];
    const lookups = arrivals();
    let hold = false;
    const store: TokenLookup = {
      auth: {
        findUserByToken: async (token, options) => {
          const signal = options?.signal;
          if (signal) {
            signals.push(signal);
            lookups.arrive();
          }
          if (hold && signal) await query(signal, 60_000);
          return fakeTokens.auth.findUserByToken(token, options);
        },
      },
    };
    // Every request asks the store here: the token cache is off.
    server = await startTestServer(fakeService(), { store, tokenCache: { ttlMs: 0, max: 0 } });
    for (let i = 0; i < 20; i++)
      expect((await fetch(`${server.url}/api/threads`, { headers: auth() })).status).toBe(200);
    expect(new Set(signals).size).toBe(20);
    expect(signals.every((s) => !s.aborted && getEventListeners(s, 'abort').length === 0)).toBe(
      true,
    );

    hold = true;
    const held = Array.from({ length: 20 }, () =>
      fetch(`${server?.url}/api/threads`, { headers: auth() }),
    );
    await lookups.reached(40);
    await server.close();
    const statuses = await Promise.all(held.map(async (res) => (await res).status));
    expect(statuses.every((status) => status === 503)).toBe(true);
    expect(signals.slice(20).every((s) => s.reason instanceof CancelledError)).toBe(true);
    server = undefined;
  });
});
