import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { timeoutOptions } from './server-timeouts.js';
import {
  auth,
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

interface RawClient {
  socket: Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves when the socket closes, with how long after `open` that was. */
  closed: Promise<number>;
  /** Writes `chunk` every `everyMs` until the socket closes. */
  dribble: (chunk: string, everyMs: number) => void;
}

/** A plain TCP client, to send requests as slowly or as oddly as an attacker would. */
async function open(url: string): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const start = Date.now();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  // Writes racing the server's close fail with EPIPE/ECONNRESET; the close itself is what is checked.
  socket.on('error', () => undefined);
  const closed = once(socket, 'close').then(() => Date.now() - start);
  return {
    socket,
    received: () => text,
    closed,
    dribble: (chunk, everyMs) => {
      const timer = setInterval(() => {
        if (!socket.destroyed) socket.write(chunk);
      }, everyMs);
      void closed.finally(() => clearInterval(timer));
    },
  };
}

/** Resolves once the server has sent `count` complete /healthz answers. */
async function answers(client: RawClient, count: number): Promise<void> {
  while (client.received().split('{"ok":true}').length - 1 < count)
    await once(client.socket, 'data');
}

const HEALTHZ = 'GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n';
// Real time throughout this file, on purpose: these timeouts are Node's own HTTP socket timers,
// which take no clock, and the dribbles and slow answers are measured against them.
const FAST = { requestMs: 500, headersMs: 500 };

describe('timeouts (real HTTP on 127.0.0.1)', () => {
  it('closes a socket that sends its headers, then dribbles its body, with a 408', async () => {
    const service = fakeService();
    server = await startTestServer(service, { timeouts: FAST });
    const client = await open(server.url);
    client.socket.write(
      'POST /api/agent/run HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ann-token\r\n' +
        'content-type: application/json\r\ncontent-length: 1000\r\n\r\n{"prompt":"',
    );
    client.dribble('x', 100);
    const afterMs = await client.closed;
    expect(afterMs).toBeLessThan(5_000);
    const [head, body] = client.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(body ?? '')).toEqual({
      ok: false,
      error: { code: 'request_timeout', message: 'The request took too long to arrive.' },
    });
    expect(service.calls).toEqual([]);
    // Cut off for its own slowness: not the server's fault, so not logged as an error.
    expect(server.logs()).not.toContain('"level":50');
  });

  it('closes a socket that dribbles its headers', async () => {
    server = await startTestServer(fakeService(), { timeouts: FAST });
    const client = await open(server.url);
    client.socket.write('GET /api/threads HTTP/1.1\r\nhost: 127.0.0.1\r\n');
    client.dribble('x-pad: 1\r\n', 100);
    expect(await client.closed).toBeLessThan(5_000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('times receiving the request only: slow answers and long streams are not cut', async () => {
    const events = [1, 2, 3, 4].map((seq) => event('text_delta', { text: `${seq}` }, seq));
    const service = fakeService({
      run: scriptedRun(events, response(), 300),
      pendingApprovals: () => new Promise((resolve) => setTimeout(() => resolve([]), 1_000)),
    });
    server = await startTestServer(service, { timeouts: FAST });
    const stream = await fetch(`${server.url}/api/agent/run/stream`, {
      method: 'POST',
      headers: jsonAuth(),
      body: JSON.stringify({ prompt: 'Hi' }),
    });
    const lines = (await stream.text()).trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({ type: 'result' });
    const slow = await fetch(`${server.url}/api/agent/approvals/pending`, { headers: auth() });
    expect(slow.status).toBe(200);
  });

  it('closes a kept-alive socket after maxRequestsPerSocket requests', async () => {
    server = await startTestServer(fakeService(), { timeouts: { maxRequestsPerSocket: 2 } });
    const client = await open(server.url);
    client.socket.write(HEALTHZ);
    await answers(client, 1);
    expect(client.received()).toMatch(/connection: keep-alive/i);
    client.socket.write(HEALTHZ);
    // Well before the keep-alive timeout (10 s): the server hangs up itself.
    expect(await client.closed).toBeLessThan(5_000);
    expect(client.received().split('{"ok":true}')).toHaveLength(3);
    expect(client.received()).toMatch(/connection: close/i);
  });

  it('closes an idle kept-alive socket after keepAliveMs', async () => {
    server = await startTestServer(fakeService(), { timeouts: { keepAliveMs: 200 } });
    const client = await open(server.url);
    client.socket.write(HEALTHZ);
    await answers(client, 1);
    // Node waits about a second beyond the advertised keep-alive before closing.
    expect(await client.closed).toBeLessThan(5_000);
  });

  it('defaults to 30 s, keeps headers within the request timeout and refuses nonsense', () => {
    expect(timeoutOptions()).toMatchObject({
      requestTimeout: 30_000,
      keepAliveTimeout: 10_000,
      maxRequestsPerSocket: 1_000,
      http: { requestTimeout: 30_000, headersTimeout: 30_000, connectionsCheckingInterval: 5_000 },
    });
    expect(timeoutOptions({ requestMs: 1_000, headersMs: 60_000 }).http).toMatchObject({
      headersTimeout: 1_000,
    });
    expect(timeoutOptions({ requestMs: 0, headersMs: 0 }).http).not.toHaveProperty(
      'connectionsCheckingInterval',
    );
    expect(() => timeoutOptions({ requestMs: -1 })).toThrow(RangeError);
    expect(() => timeoutOptions({ keepAliveMs: 0 })).toThrow(RangeError);
    expect(() => timeoutOptions({ headersMs: 1.5 })).toThrow(RangeError);
  });
});
