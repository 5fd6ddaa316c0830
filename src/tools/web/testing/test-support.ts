// Test-only: a local HTTP server on 127.0.0.1 with a route per path, and staged DNS answers.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { ToolExecutionError } from '../../../errors/index.js';
import { parseFetchAllow, type AllowList } from '../address-rules.js';
import type { ResolvedAddress, Resolver } from '../guarded-lookup.js';

export type Route = (req: IncomingMessage, res: ServerResponse, server: TestServer) => void;

export interface TestServer {
  port: number;
  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string;
  /** Every request that reached the server, in order: proves a refused fetch never connected. */
  seen: { path: string; headers: http.IncomingHttpHeaders }[];
  /**
   * Resolves once the next request for `path` (query aside) has been through
   * its route: a test acts then (a cancel while the client waits) instead of
   * after a guessed delay. Ask before the request is made.
   */
  reached(path: string): Promise<void>;
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, Route>): Promise<TestServer> {
  const server = http.createServer();
  const waiting = new Map<string, Array<() => void>>();
  const state: TestServer = {
    port: 0,
    url: (path) => `http://127.0.0.1:${state.port}${path}`,
    seen: [],
    reached: (path) =>
      new Promise((resolve) => waiting.set(path, [...(waiting.get(path) ?? []), resolve])),
    close: () =>
      new Promise<void>((resolve) => {
        // Routes that never answer hold their sockets open; close them too.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    state.seen.push({ path, headers: req.headers });
    const routePath = path.split('?')[0] ?? path;
    const route = routes[routePath];
    if (route) route(req, res, state);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end(`no route ${path}`);
    for (const resolve of waiting.get(routePath) ?? []) resolve();
    waiting.delete(routePath);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

/** Allows 127.0.0.1 only, so the test server is reachable and everything else is not. */
export const LOOPBACK_ALLOW: AllowList = parseFetchAllow('127.0.0.1');

/** A resolver answering from a table; a function entry is asked anew on each lookup. */
export function stagedResolver(
  table: Record<string, readonly string[] | (() => readonly string[])>,
): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<readonly ResolvedAddress[]> => {
    calls.push(hostname);
    const entry = table[hostname];
    const answers = typeof entry === 'function' ? entry() : (entry ?? []);
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

export const text =
  (body: string | Buffer, type = 'text/plain; charset=utf-8', status = 200): Route =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

export const redirect =
  (location: string | ((server: TestServer) => string), status = 302): Route =>
  (_req, res, server) => {
    const to = typeof location === 'function' ? location(server) : location;
    res.writeHead(status, { location: to }).end();
  };

/** Holds the request without answering, until the client gives up. */
export const never: Route = () => undefined;

/** Awaits a rejection and checks it is a ToolExecutionError (any subclass) with `message`. */
export async function expectToolError(
  promise: Promise<unknown>,
  message: string | RegExp,
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolExecutionError);
  expect((error as Error).message).toMatch(
    typeof message === 'string' ? new RegExp(`^${escapeRegExp(message)}$`) : message,
  );
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A documentation page with its furniture (navigation, scripts, footer) around the article. */
export const ARTICLE = `<!doctype html>
<html><head>
  <title>Intro &amp; Setup &#8212; Docs</title>
  <style>body { color: red }</style>
  <script>window.tracking = 1</script>
</head><body>
  <header><a href="/">Home</a> | <a href="/blog">Blog</a></header>
  <nav><ul><li><a href="/a">Menu A</a></li></ul></nav>
  <main>
    <article>
      <header><h1>Getting started</h1></header>
      <p>Read the <a href="../api/index.html">API reference</a> or <a href="javascript:void(0)">this</a>.</p>
      <h2>Steps</h2>
      <ol><li>Install</li><li>Run</li></ol>
      <ul><li>fast</li><li>small</li></ul>
      <pre><code class="language-sh">npm install cadre</code></pre>
      <p><img src="/img/diagram.png" alt="Diagram"><img src="/img/spacer.gif" alt=""></p>
      <div hidden>secret hidden text</div>
      <div aria-hidden="true">decorative</div>
      <noscript>enable js</noscript>
      <svg><text>svg text</text></svg>
      <iframe src="https://ads.example"></iframe>
    </article>
  </main>
  <aside>Related posts</aside>
  <footer>© 2024 Docs Inc</footer>
  <div role="navigation">breadcrumbs</div>
</body></html>`;
