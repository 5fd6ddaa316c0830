import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as HttpSessions from '../../../mcp/server/http-session.js';
import type { HttpMcpSession } from '../../../mcp/server/http-session.js';
import { realClock, type Clock } from '../../../util/clock.js';
import { optionalImport } from '../../../util/optional-import.js';
import type { RouteContext } from './route-context.js';

export interface McpRouteOptions {
  /** A session nobody used for this long is closed (default 30 minutes). */
  idleMs?: number;
  /** Open sessions per user; a new one closes that user's longest idle one (default 16). */
  maxSessionsPerUser?: number;
  /** How long a person may take to answer an approval question (default 10 minutes). */
  approvalTimeoutMs?: number;
  /** What the idle sweep reads and waits on; tests step a manual clock. */
  clock?: Clock;
}

interface Session {
  id: string;
  userId: string;
  mcp?: HttpMcpSession;
  lastSeen: number;
  /** Requests of the session still open (a call in progress, a listening GET stream). */
  open: number;
  closed: boolean;
}

const DEFAULT_IDLE_MS = 30 * 60_000;
const DEFAULT_MAX_SESSIONS = 16;

/**
 * The MCP SDK costs ~100 ms to load: only the first `/mcp` request pays it (imports are cached).
 * It is an optional peer, which `npm install cadre` leaves out.
 */
const loadSessions = (): Promise<typeof HttpSessions> =>
  optionalImport(() => import('../../../mcp/server/http-session.js'), {
    needs: 'The /mcp endpoint needs',
    packages: ['@modelcontextprotocol/sdk'],
  });

/**
 * `/mcp`: the server's agents as an MCP server over streamable HTTP, behind
 * the same bearer token as `/api`. Sessions, not stateless requests: asking
 * the client to approve a call (elicitation) needs its capabilities from
 * `initialize` and its answer routed back to the same server, so each
 * session keeps one MCP server and transport, bound to the user who opened
 * it. Runs go through the run service, stored and audited like any other.
 * Sessions live in this process; a session closed here (idle, shutdown)
 * lets its runs go on.
 */
export function mcpRoutes(
  app: FastifyInstance,
  { service }: RouteContext,
  options: McpRouteOptions = {},
): void {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const maxPerUser = options.maxSessionsPerUser ?? DEFAULT_MAX_SESSIONS;
  const sessions = new Map<string, Session>();
  let shuttingDown = false;

  const close = (session: Session): void => {
    if (session.closed) return;
    session.closed = true;
    sessions.delete(session.id);
    session.mcp?.server.close().catch((error: unknown) => {
      app.log.warn({ err: error }, 'mcp session did not close cleanly');
    });
  };
  const clock = options.clock ?? realClock;
  const sweeping = new AbortController();
  const sweepEvery = Math.max(1_000, Math.min(idleMs, 60_000));
  void (async () => {
    for (;;) {
      await clock.sleep(sweepEvery, sweeping.signal, { background: true });
      const now = clock.now();
      for (const session of [...sessions.values()])
        if (session.open === 0 && now - session.lastSeen > idleMs) close(session);
    }
  })().catch(() => undefined); // Ends when preClose aborts the sleep.
  app.addHook('preClose', (done) => {
    // Streams end now (close() would otherwise wait for them); the runs go on.
    shuttingDown = true;
    sweeping.abort();
    for (const session of [...sessions.values()]) close(session);
    done();
  });

  /** A new session for the requesting user; undefined when all of their sessions are busy. */
  const open = async (request: FastifyRequest): Promise<Session | undefined> => {
    const own = [...sessions.values()].filter((s) => s.userId === request.userId);
    if (own.length >= maxPerUser) {
      const idle = own.filter((s) => s.open === 0).sort((a, b) => a.lastSeen - b.lastSeen)[0];
      if (!idle) return undefined;
      close(idle);
    }
    const session: Session = {
      id: '',
      userId: request.userId,
      lastSeen: clock.now(),
      open: 0,
      closed: false,
    };
    const { openHttpSession } = await loadSessions();
    session.mcp = await openHttpSession({
      service,
      userId: request.userId,
      detaching: () => session.closed || shuttingDown,
      pageUrl: `${request.protocol}://${request.host}`,
      onError: (error) => app.log.error({ err: error }, 'mcp tool call failed'),
      ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
      onInitialized: (id) => {
        session.id = id;
        sessions.set(id, session);
      },
      onClosed: () => {
        session.closed = true;
        sessions.delete(session.id);
      },
    });
    return session;
  };

  /** Hands the raw request to the session's transport, which answers it (JSON or an SSE stream). */
  const handle = async (
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
  ): Promise<void> => {
    session.lastSeen = clock.now();
    session.open += 1;
    reply.raw.once('close', () => {
      session.open -= 1;
      session.lastSeen = clock.now();
    });
    reply.hijack();
    try {
      await session.mcp?.transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'mcp request failed');
      if (reply.raw.headersSent) reply.raw.end();
      else {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify(rpcBody(-32603, 'Internal error.')));
      }
    }
  };

  /** The session a request names, if it is the requesting user's (another's is not there). */
  const named = (request: FastifyRequest): Session | undefined => {
    const header = request.headers['mcp-session-id'];
    const session = typeof header === 'string' ? sessions.get(header) : undefined;
    return session && session.userId === request.userId && !session.closed ? session : undefined;
  };

  const inSession = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers['mcp-session-id'] === undefined)
      return reply.status(400).send(rpcBody(-32000, 'No MCP session: send initialize first.'));
    const session = named(request);
    if (!session)
      return reply.status(404).send(rpcBody(-32001, 'No such MCP session: initialize a new one.'));
    return handle(request, reply, session);
  };

  app.post('/mcp', async (request, reply) => {
    if (request.headers['mcp-session-id'] !== undefined) return inSession(request, reply);
    const { isInitializeRequest } = await loadSessions();
    if (!isInitializeRequest(request.body))
      return reply.status(400).send(rpcBody(-32000, 'No MCP session: send initialize first.'));
    const session = await open(request);
    if (!session)
      return reply
        .status(429)
        .send(rpcBody(-32000, `All ${maxPerUser} of your MCP sessions are busy; close one first.`));
    await handle(request, reply, session);
    // An initialize the transport refused never became a session.
    if (!session.id) close(session);
  });
  app.get('/mcp', inSession);
  app.delete('/mcp', inSession);
  noOAuthDiscovery(app);
}

/**
 * `/mcp` takes a bearer token from `cadre token create`, not OAuth. A client
 * that probes the discovery documents (as the SDK's does on a 401) must hear
 * 404, "no OAuth here", not a 401 that reads as "sign in first".
 */
const OAUTH_DISCOVERY = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/mcp/.well-known/openid-configuration',
];

function noOAuthDiscovery(app: FastifyInstance): void {
  const notHere = (_request: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send({
      ok: false,
      error: {
        code: 'no_oauth',
        message: 'This server does not use OAuth: send a bearer token from `cadre token create`.',
      },
    });
  for (const path of OAUTH_DISCOVERY)
    for (const url of path.startsWith('/mcp/') ? [path] : [path, `${path}/*`])
      app.get(url, { config: { public: true } }, notHere);
}

const rpcBody = (code: number, message: string) => ({
  jsonrpc: '2.0',
  error: { code, message },
  id: null,
});
