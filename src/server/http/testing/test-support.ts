import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type {
  CadreEvent,
  CadreEventOf,
  EventDataMap,
  WellKnownEventType,
} from '../../../events/types.js';
import type { User } from '../../../store/types.js';
import type { RunHooks, RunResponse, RunService } from '../../run-service-types.js';
import type { TokenLookup } from '../auth.js';
import { buildServer, type BuildServerOptions } from '../build-server.js';

/** Tokens the fake auth knows: `ann-token` → user `u-ann`, `eve-token` → user `u-eve`. */
export const USERS: Record<string, User> = {
  'ann-token': { id: 'u-ann', name: 'ann', createdAt: '2026-01-01T00:00:00.000Z' },
  'eve-token': { id: 'u-eve', name: 'eve', createdAt: '2026-01-01T00:00:00.000Z' },
};

export const fakeTokens: TokenLookup = {
  auth: { findUserByToken: (token) => Promise.resolve(USERS[token]) },
};

/** A RunService whose every method records its call and answers from `overrides` or a canned default. */
export interface FakeRunService extends RunService {
  calls: string[];
}

export function response(overrides: Partial<RunResponse> = {}): RunResponse {
  return {
    ok: true,
    runId: 'r1',
    threadId: 't1',
    status: 'completed',
    summary: 'Done.',
    actions: [],
    approvals: [],
    ...overrides,
  };
}

/**
 * A well-known event for a fake run: the fields of its data it gives have
 * their types' types; a test may leave some out, or add one (a writer may).
 */
export function event<T extends WellKnownEventType>(
  type: T,
  data: Partial<EventDataMap[T]> & Record<string, unknown> = {},
  seq = 1,
): CadreEventOf<T> {
  return {
    type,
    message: type,
    timestamp: '2026-01-01T00:00:00.000Z',
    data,
    runId: 'r1',
    executionId: 'e1',
    depth: 0,
    path: ['assistant'],
    seq,
  } as unknown as CadreEventOf<T>;
}

export function fakeService(overrides: Partial<RunService> = {}): FakeRunService {
  const calls: string[] = [];
  const base: RunService = {
    run: () => Promise.resolve(response()),
    resolveApproval: () => Promise.resolve(response()),
    cancelRun: () => Promise.resolve(undefined),
    followRun: () => Promise.resolve(undefined),
    drain: () => Promise.resolve({ finished: 0, handedOver: 0 }),
    pendingApprovals: () => Promise.resolve([]),
    pendingApprovalPage: () => Promise.resolve({ approvals: [] }),
    listThreads: () => Promise.resolve([]),
    getThread: () => Promise.resolve(undefined),
    getRun: () => Promise.resolve(undefined),
    readEvents: () => Promise.resolve(undefined),
    listAgents: () => Promise.resolve([]),
    listGrants: () => Promise.resolve([]),
    revokeGrant: () => Promise.resolve(false),
    audit: () => Promise.resolve([]),
    verifyAudit: () => Promise.resolve({ ok: true, count: 0 }),
    trajectory: () => Promise.resolve(undefined),
    trajectoryFile: () => Promise.resolve(undefined),
    forkRun: () => Promise.resolve(undefined),
    close: () => Promise.resolve(),
  };
  const merged = { ...base, ...overrides };
  const recorded = Object.fromEntries(
    Object.entries(merged).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        calls.push(name);
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as RunService;
  return Object.assign(recorded, { calls });
}

/**
 * Plays `events` through the hooks with a pause between them, then answers.
 * The pause is real time: it stands for a slow run against the server's real
 * socket timers (see timeouts.test.ts).
 */
export function scriptedRun(
  events: CadreEvent[],
  result: RunResponse = response(),
  pauseMs = 0,
): (request: unknown, hooks?: RunHooks) => Promise<RunResponse> {
  return async (_request, hooks) => {
    for (const e of events) {
      hooks?.signal?.throwIfAborted();
      hooks?.onEvent?.(e);
      if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    }
    return result;
  };
}

export interface TestServer {
  app: FastifyInstance;
  url: string;
  /** Every log line written, as text. */
  logs: () => string;
  close: () => Promise<void>;
}

/** Builds the server over `service` and listens on 127.0.0.1, a free port. */
export async function startTestServer(
  service: RunService,
  options: Partial<BuildServerOptions> = {},
): Promise<TestServer> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const app = buildServer({
    service,
    store: fakeTokens,
    log: { level: 'info', stream },
    ...options,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    logs: () => lines.join(''),
    close: () => app.close(),
  };
}

export const auth = (token = 'ann-token') => ({ authorization: `Bearer ${token}` });
export const jsonAuth = (token = 'ann-token') => ({
  ...auth(token),
  'content-type': 'application/json',
});
