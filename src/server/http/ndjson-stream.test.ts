import { afterEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../errors/cadre-error.js';
import { ModelError } from '../../errors/model-error.js';
import type { RunHooks } from '../run-service-types.js';
import {
  event,
  fakeService,
  jsonAuth,
  response,
  scriptedRun,
  startTestServer,
  type TestServer,
} from './testing/test-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Line = Record<string, unknown> & { type: string };

function post(path: string, payload: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${server?.url}${path}`, {
    method: 'POST',
    headers: jsonAuth(),
    body: JSON.stringify(payload),
    ...(signal ? { signal } : {}),
  });
}

/** Reads NDJSON lines as they arrive. */
async function* lines(res: Response): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of res.body ?? []) {
    buffered += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      yield JSON.parse(buffered.slice(0, end)) as Line;
      buffered = buffered.slice(end + 1);
    }
  }
  expect(buffered).toBe(''); // every line ends with a newline, the last one too
}

async function all(res: Response): Promise<Line[]> {
  const out: Line[] = [];
  for await (const line of lines(res)) out.push(line);
  return out;
}

const started = event('run_started', { agent: 'assistant', threadId: 't1' }, 1);

describe('NDJSON streams (real HTTP on 127.0.0.1)', () => {
  it('writes status first, then one line per event in order, then the result', async () => {
    const events = [
      started,
      event('thought_delta', { text: 'hm' }, 2),
      event('text_delta', { text: 'Hel' }, 3),
      event('text_delta', { text: 'lo' }, 4),
      event('tool_call', { callId: 'c1', tool: 'gmail_send', args: { to: 'b@x.org' } }, 5),
      event(
        'approval_required',
        { callId: 'c1', tool: 'gmail_send', preview: 'Send to b@x.org' },
        6,
      ),
      { ...event('text_delta', { text: 'sub' }, 7), depth: 1 },
      event('usage', { input: 3 }, 8),
    ];
    const result = response({ status: 'awaiting_confirmation' });
    server = await startTestServer(fakeService({ run: scriptedRun(events, result) }));
    const res = await post('/api/agent/run/stream', { prompt: 'Hi' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const got = await all(res);
    expect(got.map((l) => l.type)).toEqual([
      'status',
      'event',
      'thought_delta',
      'delta',
      'delta',
      'tool_call',
      'approval_required',
      'event',
      'event',
      'result',
    ]);
    expect(got[0]).toEqual({ type: 'status', status: 'planning', threadId: 't1', runId: 'r1' });
    expect(got[1]).toEqual({ type: 'event', event: started });
    expect(got[3]).toEqual({ type: 'delta', delta: 'Hel', seq: 3 });
    expect(got[5]).toMatchObject({ tool: 'gmail_send', callId: 'c1', args: { to: 'b@x.org' } });
    expect(got[6]).toMatchObject({ callId: 'c1', preview: 'Send to b@x.org' });
    expect(got[7]).toMatchObject({ type: 'event', event: { type: 'text_delta', depth: 1 } });
    expect(got.at(-1)).toEqual({ type: 'result', result });
  });

  it('sends each line as it happens, not when the run ends', async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    server = await startTestServer(
      fakeService({
        run: async (_request, hooks) => {
          hooks?.onEvent?.(started);
          await gate;
          return response();
        },
      }),
    );
    const reader = lines(await post('/api/agent/run/stream', { prompt: 'Hi' }));
    expect((await reader.next()).value).toMatchObject({ type: 'status', threadId: 't1' });
    expect((await reader.next()).value).toMatchObject({ type: 'event' });
    release();
    expect((await reader.next()).value).toMatchObject({ type: 'result' });
    expect((await reader.next()).done).toBe(true);
  });

  it('answers a failure before the first line with its status, and a later one as an error line', async () => {
    server = await startTestServer(
      fakeService({
        resolveApproval: () =>
          Promise.reject(new ConflictError('This approval was already resolved.')),
        run: async (_request, hooks) => {
          hooks?.onEvent?.(started);
          throw new ModelError('The model provider failed.', { details: 'RAW-PROVIDER-BODY' });
        },
      }),
    );
    const early = await post('/api/agent/approvals/resolve/stream', {
      approvalId: 'a1',
      decision: 'reject',
    });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ ok: false, error: { code: 'conflict' } });

    const late = await post('/api/agent/run/stream', { prompt: 'Hi' });
    expect(late.status).toBe(200);
    const got = await all(late);
    expect(got.map((l) => l.type)).toEqual(['status', 'event', 'error']);
    expect(got.at(-1)).toEqual({
      type: 'error',
      error: 'The model provider failed.',
      code: 'model_error',
    });
    expect(JSON.stringify(got)).not.toContain('RAW-PROVIDER-BODY');
  });

  it('hides an unexpected failure mid-stream behind a generic internal error', async () => {
    server = await startTestServer(
      fakeService({
        run: async (_request, hooks) => {
          hooks?.onEvent?.(started);
          throw new Error('connection string postgres://u:SECRET@db');
        },
      }),
    );
    const got = await all(await post('/api/agent/run/stream', { prompt: 'Hi' }));
    expect(got.at(-1)).toMatchObject({ type: 'error', code: 'internal' });
    expect(JSON.stringify(got)).not.toContain('SECRET');
  });

  it('aborts the run when the client disconnects', async () => {
    let seen: AbortSignal | undefined;
    // Resolved once the run hears the abort: the test waits for that, not on a timer.
    let heard = (): void => undefined;
    const aborted = new Promise<void>((resolve) => (heard = resolve));
    server = await startTestServer(
      fakeService({
        run: async (_request, hooks?: RunHooks) => {
          seen = hooks?.signal;
          hooks?.onEvent?.(started);
          await new Promise<void>((resolve) =>
            hooks?.signal?.addEventListener('abort', () => resolve()),
          );
          heard();
          throw hooks?.signal?.reason;
        },
      }),
    );
    const client = new AbortController();
    const reader = lines(await post('/api/agent/run/stream', { prompt: 'Hi' }, client.signal));
    expect((await reader.next()).value).toMatchObject({ type: 'status' });
    client.abort();
    await aborted;
    expect(seen?.aborted).toBe(true);
    expect(String(seen?.reason)).toMatch(/client disconnected/);
  });

  it('puts the ids a resumed run announces on its status line, and streams a run with no events', async () => {
    const resumed = [event('run_resumed', { decisions: 1 }, 9)];
    server = await startTestServer(
      fakeService({
        // As the server core does: the ids before any event (a resumed run's events name no thread).
        resolveApproval: (request, hooks) => {
          hooks?.onStarted?.({ runId: 'r1', threadId: 't7' });
          return scriptedRun(resumed, response({ threadId: 't7' }))(request, hooks);
        },
        run: scriptedRun([], response({ threadId: 't8', runId: 'r8' })),
      }),
    );
    const resolved = await all(
      await post('/api/agent/approvals/resolve/stream', {
        approvalId: 'a1',
        decision: 'approve_once',
      }),
    );
    expect(resolved[0]).toEqual({
      type: 'status',
      status: 'planning',
      threadId: 't7',
      runId: 'r1',
    });
    expect(resolved.map((l) => l.type)).toEqual(['status', 'event', 'result']);
    const quiet = await all(await post('/api/agent/run/stream', { prompt: 'Hi' }));
    expect(quiet).toEqual([
      { type: 'status', status: 'planning', threadId: 't8', runId: 'r8' },
      { type: 'result', result: response({ threadId: 't8', runId: 'r8' }) },
    ]);
  });

  it('ends running streams with a cancelled line when the server closes', async () => {
    server = await startTestServer(
      fakeService({
        run: async (_request, hooks) => {
          hooks?.onEvent?.(started);
          await new Promise<void>((resolve) =>
            hooks?.signal?.addEventListener('abort', () => resolve()),
          );
          throw hooks?.signal?.reason;
        },
      }),
    );
    const reader = lines(await post('/api/agent/run/stream', { prompt: 'Hi' }));
    expect((await reader.next()).value).toMatchObject({ type: 'status' });
    expect((await reader.next()).value).toMatchObject({ type: 'event' });
    const closed = server.close();
    server = undefined;
    expect((await reader.next()).value).toEqual({
      type: 'error',
      error: 'The server is shutting down.',
      code: 'cancelled',
    });
    expect((await reader.next()).done).toBe(true);
    await closed;
  });

  it('drops a line it cannot serialise and keeps the run going', async () => {
    server = await startTestServer(
      fakeService({ run: scriptedRun([started, event('usage', { big: 1n }, 2)]) }),
    );
    const got = await all(await post('/api/agent/run/stream', { prompt: 'Hi' }));
    expect(got.map((l) => l.type)).toEqual(['status', 'event', 'result']);
  });
});
