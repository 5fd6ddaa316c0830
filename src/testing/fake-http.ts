import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realClock, type Clock } from '../util/clock.js';
import type { CapturedRequest, FakeFailure, FakeServer, FakeServerOptions } from './fake-turn.js';
import { fakeInputTokens } from './fake-turn.js';

/** What a fake provider plugs into the shared server: routing and its wire formats. */
export interface FakeProvider {
  name: string;
  /** Provider-shaped error body for a scripted failure or a script that ran out. */
  errorBody(status: number, message: string): unknown;
  /** The provider's real answer to a request longer than the window: its status and body. */
  tooLong(inputTokens: number, maxTokens: number): { status: number; body: unknown };
  /**
   * Answers one request that passed the scripted failures; `turnIndex` counts
   * those requests only. `stream` writes one streamed event after the pause.
   */
  handle(request: CapturedRequest, turnIndex: number, reply: FakeReply): Promise<void>;
}

/** One SSE event: bare data, or a named one (`event: <name>` before the data, as Anthropic sends). */
export type SseEvent = string | { event: string; data: string };

export interface FakeReply {
  json(status: number, body: unknown, headers?: Record<string, string>): void;
  /** Writes each event as `data: <event>` plus `separator`, pausing between events. */
  sse(events: readonly SseEvent[], separator: string): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (random port) that plays back a script. */
export async function startFakeHttp(
  provider: FakeProvider,
  options: FakeServerOptions,
): Promise<FakeServer> {
  const requests: CapturedRequest[] = [];
  const failures = [...(options.failFirst ?? [])];
  // Stops paused streams when the server closes.
  const lifetime = new AbortController();
  let turnIndex = 0;

  const server = createServer((req, res) => {
    void (async () => {
      try {
        const captured = await capture(req);
        requests.push(captured);
        const reply = makeReply(res, options, lifetime.signal);
        const failure = failures.shift();
        if (failure) {
          replyFailure(reply, provider, failure);
          return;
        }
        const counted = options.maxInputTokens !== undefined ? fakeInputTokens(captured.body) : 0;
        if (options.maxInputTokens !== undefined && counted > options.maxInputTokens) {
          const refusal = provider.tooLong(counted, options.maxInputTokens);
          reply.json(refusal.status, refusal.body);
          return;
        }
        await provider.handle(captured, turnIndex++, reply);
      } catch (error) {
        if (!res.headersSent) {
          const message = `${provider.name}: bad request: ${error instanceof Error ? error.message : String(error)}`;
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify(provider.errorBody(400, message)));
        } else {
          res.destroy();
        }
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      lifetime.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function replyFailure(reply: FakeReply, provider: FakeProvider, failure: FakeFailure): void {
  const headers: Record<string, string> =
    failure.retryAfter === undefined ? {} : { 'retry-after': failure.retryAfter };
  const body =
    failure.body ??
    provider.errorBody(
      failure.status,
      `${provider.name}: scripted failure (HTTP ${failure.status})`,
    );
  reply.json(failure.status, body, headers);
}

async function capture(req: IncomingMessage): Promise<CapturedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const url = new URL(req.url ?? '/', 'http://fake.local');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body: raw === '' ? undefined : (JSON.parse(raw) as unknown),
  };
}

function makeReply(
  res: ServerResponse,
  options: FakeServerOptions,
  serverClosing: AbortSignal,
): FakeReply {
  const delayMs = options.chunkDelayMs ?? 0;
  const clock = options.clock ?? realClock;
  return {
    json(status, body, headers = {}) {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    },
    async sse(events, separator) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const [index, event] of events.entries()) {
        if (index > 0 && delayMs > 0) await pause(clock, delayMs, serverClosing);
        // The client may have gone (an abort test): stop writing quietly.
        if (res.destroyed || serverClosing.aborted) return;
        res.write(
          typeof event === 'string'
            ? `data: ${event}${separator}`
            : `event: ${event.event}\ndata: ${event.data}${separator}`,
        );
      }
      res.end();
    },
  };
}

/** Waits on the test's clock; the server closing ends the wait early. */
const pause = (clock: Clock, ms: number, signal: AbortSignal): Promise<void> =>
  clock.sleep(ms, signal).catch(() => undefined);
