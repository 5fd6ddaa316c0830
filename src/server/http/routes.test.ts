import { afterEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../../errors/cadre-error.js';
import { ModelError } from '../../errors/model-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { RunRequest, ThreadView } from '../run-service-types.js';
import {
  auth,
  event,
  fakeService,
  jsonAuth,
  response,
  startTestServer,
  type TestServer,
} from './testing/test-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const view: ThreadView = {
  thread: { id: 't1', userId: 'u-ann', title: 'Hi', createdAt: 'x', updatedAt: 'x' },
  messages: [],
  pendingApprovals: [],
};

async function body(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

describe('HTTP routes over a fake RunService (real HTTP on 127.0.0.1)', () => {
  it('serves /healthz without a token and refuses the API without one', async () => {
    const service = fakeService();
    server = await startTestServer(service);
    expect(await body(await fetch(`${server.url}/healthz`))).toEqual({ ok: true });
    for (const headers of [{}, auth('wrong'), { authorization: 'Basic YW5uOng=' }]) {
      const res = await fetch(`${server.url}/api/threads`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await body(res)).toEqual({
        ok: false,
        error: { code: 'auth_error', message: 'Missing or invalid bearer token.' },
      });
    }
    expect(service.calls).toEqual([]);
  });

  it('runs a prompt as the token user and answers the published response shape', async () => {
    const seen: RunRequest[] = [];
    const service = fakeService({
      run: (request) => {
        seen.push(request);
        return Promise.resolve(response({ threadId: 't9' }));
      },
    });
    server = await startTestServer(service);
    const res = await fetch(`${server.url}/api/agent/run`, {
      method: 'POST',
      headers: jsonAuth(),
      body: JSON.stringify({ prompt: 'Hello', threadId: 't9', agent: 'helper' }),
    });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual(response({ threadId: 't9' }));
    expect(seen).toEqual([{ prompt: 'Hello', threadId: 't9', agent: 'helper', userId: 'u-ann' }]);
  });

  it("answers 404 for another user's thread and run, exactly as for a missing one", async () => {
    const service = fakeService({
      getThread: (userId, id) =>
        Promise.resolve(userId === 'u-ann' && id === 't1' ? view : undefined),
    });
    server = await startTestServer(service);
    const own = await fetch(`${server.url}/api/threads/t1`, { headers: auth() });
    expect(await body(own)).toMatchObject({ ok: true, thread: { id: 't1' }, messages: [] });
    for (const [path, token] of [
      ['/api/threads/t1', 'eve-token'],
      ['/api/threads/nope', 'ann-token'],
      ['/api/runs/r1', 'eve-token'],
      ['/api/runs/r1/events', 'eve-token'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { headers: auth(token) });
      expect(res.status).toBe(404);
      expect((await body(res)).error).toMatchObject({ code: 'not_found' });
    }
  });

  it('maps the taxonomy to status codes with safe messages and no stack traces', async () => {
    const cases: Array<[Error, number, string]> = [
      [new ConflictError('This approval was already resolved.'), 409, 'conflict'],
      [new NotFoundError('No such approval.'), 404, 'not_found'],
      [
        new ValidationError([{ path: 'prompt', message: 'must not be empty' }]),
        422,
        'validation_error',
      ],
      [
        new ModelError('The model provider failed.', { details: { raw: 'SECRET-BODY' } }),
        502,
        'model_error',
      ],
      [new Error('db password=SECRET at /srv/x.ts:12'), 500, 'internal'],
    ];
    for (const [error, status, code] of cases) {
      server = await startTestServer(fakeService({ resolveApproval: () => Promise.reject(error) }));
      const res = await fetch(`${server.url}/api/agent/approvals/resolve`, {
        method: 'POST',
        headers: jsonAuth(),
        body: JSON.stringify({ approvalId: 'a1', decision: 'approve_once' }),
      });
      const text = await res.text();
      expect(res.status).toBe(status);
      expect(JSON.parse(text)).toMatchObject({ ok: false, error: { code } });
      expect(text).not.toMatch(/SECRET|\.ts:|at \//);
      if (code === 'internal') expect(server.logs()).toContain('SECRET'); // details go to the log
      await server.close();
      server = undefined;
    }
  });

  it('serves stored events as NDJSON from a cursor', async () => {
    const afters: number[] = [];
    const stored = [event('tool_call', { tool: 'ls' }, 4), event('final_result', {}, 5)];
    server = await startTestServer(
      fakeService({
        readEvents: (_u, _r, after) => {
          afters.push(after);
          return Promise.resolve(
            stored.map((e) => ({ runId: 'r1', seq: e.seq, type: e.type, event: e })),
          );
        },
      }),
    );
    const res = await fetch(`${server.url}/api/runs/r1/events?after=3`, { headers: auth() });
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(stored);
    expect(afters).toEqual([3]);
    const bad = await fetch(`${server.url}/api/runs/r1/events?after=-1`, { headers: auth() });
    expect(bad.status).toBe(400);
  });

  it('serves the read routes with their ok envelopes', async () => {
    const service = fakeService({
      listAgents: () =>
        Promise.resolve([{ name: 'assistant', description: 'd', origin: 'builtin' }]),
      verifyAudit: () => Promise.resolve({ ok: false, brokenAt: 7, reason: 'hash_mismatch' }),
    });
    server = await startTestServer(service);
    const get = async (path: string) => {
      const res = await fetch(`${server?.url}${path}`, { headers: auth() });
      return { status: res.status, body: await body(res) };
    };
    expect(await get('/api/threads')).toEqual({ status: 200, body: { ok: true, threads: [] } });
    expect((await get('/api/agents')).body).toMatchObject({ agents: [{ name: 'assistant' }] });
    expect((await get('/api/agent/approvals/pending')).body).toEqual({
      ok: true,
      approvals: [],
      nextCursor: null,
    });
    expect((await get('/api/audit?runId=r1')).body).toEqual({ ok: true, entries: [] });
    expect((await get('/api/audit')).status).toBe(400);
    expect((await get('/api/audit/verify')).body).toEqual({
      ok: true,
      verification: { ok: false, brokenAt: 7, reason: 'hash_mismatch' },
    });
    expect(await get('/api/nothing')).toEqual({
      status: 404,
      body: { ok: false, error: { code: 'not_found', message: 'No such route.' } },
    });
  });

  it('aborts a plain (non-streaming) run when its client goes away', async () => {
    let seen: AbortSignal | undefined;
    // The run tells the test when it started and when it heard the abort: no timed polls.
    let started = (): void => undefined;
    let heard = (): void => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const aborted = new Promise<void>((resolve) => (heard = resolve));
    server = await startTestServer(
      fakeService({
        run: async (_request, hooks) => {
          seen = hooks?.signal;
          started();
          await new Promise<void>((resolve) =>
            hooks?.signal?.addEventListener('abort', () => resolve()),
          );
          heard();
          throw hooks?.signal?.reason;
        },
      }),
    );
    const client = new AbortController();
    const pending = fetch(`${server.url}/api/agent/run`, {
      method: 'POST',
      headers: jsonAuth(),
      body: JSON.stringify({ prompt: 'Hi' }),
      signal: client.signal,
    }).catch(() => undefined);
    await running;
    client.abort();
    await pending;
    await aborted;
    expect(seen?.aborted).toBe(true);
  });
});
