import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { RunService } from '../run-service-types.js';
import { createAuthFailures, type AuthFailureLimit } from './auth-failures.js';
import { registerAuth, type TokenLookup } from './auth.js';
import { clientErrorHandler } from './client-errors.js';
import { clientLeft, errorBody, mapError } from './error-mapping.js';
import { registerGracefulClose } from './graceful-close.js';
import { HttpProblem } from './http-problem.js';
import { createLogger, type LogOptions } from './logger.js';
import { RequestLog } from './request-log.js';
import { createRequestSignals } from './request-signals.js';
import { closeSpentSockets } from './spent-sockets.js';
import { a2aRoutes } from './routes/a2a-routes.js';
import { agentRoutes } from './routes/agent-routes.js';
import { approvalRoutes } from './routes/approval-routes.js';
import { auditRoutes } from './routes/audit-routes.js';
import { grantRoutes } from './routes/grant-routes.js';
import { healthRoutes } from './routes/health-routes.js';
import { mcpRoutes } from './routes/mcp-routes.js';
import { meRoutes } from './routes/me-routes.js';
import { openAiCompatRoutes } from './routes/openai-compat-routes.js';
import type { RouteContext } from './routes/route-context.js';
import { runReadRoutes } from './routes/run-read-routes.js';
import { runRoutes } from './routes/run-routes.js';
import { signInRoutes, type SignInLinks } from './routes/sign-in-routes.js';
import { threadRoutes } from './routes/thread-routes.js';
import { trajectoryRoutes } from './routes/trajectory-routes.js';
import { timeoutOptions, type ServerTimeouts } from './server-timeouts.js';
import { DEFAULT_TOKEN_CACHE, tokenCache, type TokenCacheOptions } from './token-cache.js';
import type { TrustProxy } from './trust-proxy.js';

export interface BuildServerOptions {
  service: RunService;
  /** Auth lookups only. */
  store: TokenLookup;
  log?: LogOptions;
  /** Per token; default 600 requests a minute. */
  rateLimit?: { max: number; timeWindow: number | string };
  /** Bytes; default 256 KiB. */
  bodyLimit?: number;
  /** Receiving requests and keeping sockets alive; defaults in DEFAULT_TIMEOUTS. */
  timeouts?: ServerTimeouts;
  /** Valid tokens trusted without a lookup for `ttlMs` (default 5 s; 0 asks the store every time). */
  tokenCache?: TokenCacheOptions;
  /** Failed sign-ins per client address and per token prefix; default 20 a minute, then 429. */
  authFailureLimit?: AuthFailureLimit;
  /** Proxies whose X-Forwarded-For names the client (Fastify's `trustProxy`); default none. */
  trustProxy?: TrustProxy;
  /** `cadre serve` on this machine: its sign-in link's one-time codes (`POST /api/sign-in`). */
  signIn?: SignInLinks;
}

const DEFAULT_BODY_LIMIT = 256 * 1024;
const DEFAULT_RATE_LIMIT = { max: 600, timeWindow: '1 minute' } as const;

/** The HTTP API over a RunService: auth, rate, size and time limits, validation, status codes, JSON and NDJSON. */
/** Seconds a client waits before retrying while the database is down (its reconnects back off to 2 s). */
const STORE_RETRY_SECONDS = '2';

export function buildServer(options: BuildServerOptions): FastifyInstance {
  // Typed as Fastify's logger so the instance is the plain FastifyInstance routes expect.
  const logger: FastifyBaseLogger = createLogger(options.log);
  const timeouts = timeoutOptions(options.timeouts);
  const app = Fastify({
    loggerInstance: logger,
    logController: new RequestLog(),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Ids are at most 200 characters (request-schemas); longer path parts are 404 at the router.
    routerOptions: { maxParamLength: 200 },
    ...timeouts,
    clientErrorHandler: clientErrorHandler(logger),
    trustProxy: options.trustProxy ?? false,
  });
  closeSpentSockets(app, timeouts.maxRequestsPerSocket ?? 0);
  const shutdown = new AbortController();
  registerGracefulClose(app, shutdown);
  const requestSignal = createRequestSignals(shutdown.signal);

  app.setErrorHandler((error, request, reply) => {
    const mapped = clientLeft(error, request.raw) ?? mapError(error);
    if (mapped.serverFault) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: mapped.code, status: mapped.status }, 'request refused');
    if (mapped.code === 'auth_error') void reply.header('www-authenticate', 'Bearer');
    // The database comes back on its own: tell clients when to try again rather than give up.
    if (mapped.code === 'store_unavailable') void reply.header('retry-after', STORE_RETRY_SECONDS);
    return reply.status(mapped.status).send(errorBody(mapped));
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ ok: false, error: { code: 'not_found', message: 'No such route.' } }),
  );

  registerAuth(app, {
    tokens: tokenCache(options.store, options.tokenCache ?? DEFAULT_TOKEN_CACHE),
    failures: createAuthFailures(options.authFailureLimit),
    signals: requestSignal,
  });
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  void app.register(rateLimit, {
    max: limit.max,
    timeWindow: limit.timeWindow,
    // Runs after auth (route-level hooks follow global ones), so the key is the token.
    keyGenerator: (request) => request.tokenKey || `ip:${request.ip}`,
    errorResponseBuilder: (_request, context) =>
      new HttpProblem(429, 'rate_limited', `Too many requests; retry in ${context.after}.`),
  });
  const ctx: RouteContext = { service: options.service, requestSignal };
  // Routes register after the rate limiter, whose onRoute hook must see them.
  void app.register(async (scope) => {
    healthRoutes(scope);
    runRoutes(scope, ctx);
    approvalRoutes(scope, ctx);
    threadRoutes(scope, ctx);
    runReadRoutes(scope, ctx);
    trajectoryRoutes(scope, ctx);
    agentRoutes(scope, ctx);
    meRoutes(scope);
    mcpRoutes(scope, ctx);
    a2aRoutes(scope, ctx);
    openAiCompatRoutes(scope, ctx);
    auditRoutes(scope, ctx);
    grantRoutes(scope, ctx);
    if (options.signIn) signInRoutes(scope, options.signIn, requestSignal);
  });
  return app;
}
