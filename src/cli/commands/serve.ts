import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ConfigError } from '../../errors/cadre-error.js';
import type { LogOptions } from '../../server/http/logger.js';
import type { RunService } from '../../server/run-service-types.js';
import type { Store } from '../../store/types.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle, type Style } from '../style.js';
import { storeUrlFor } from './token.js';
import { createSignInCodes } from '../../server/http/sign-in-codes.js';
import type { SignInLinks } from '../../server/http/routes/sign-in-routes.js';
import { serverWorkspaces } from './server-workspace.js';
import { describeConfinement } from '../sandbox-notice.js';
import type { ModelFlag, PolicyFlag, TrustProjectFlag } from '../options/agent-options.js';
import type {
  AgentsFlag,
  DbFlag,
  DrainFlag,
  LogFlags,
  ServerWorkspaceFlag,
} from '../options/server-options.js';

export type ServeCommandOptions = {
  port: string;
  host: string;
  /** `--no-worker`: this process serves HTTP only; `cadre worker` processes drive the runs. */
  worker: boolean;
} & DbFlag &
  ModelFlag &
  AgentsFlag &
  DrainFlag &
  PolicyFlag &
  TrustProjectFlag &
  LogFlags &
  ServerWorkspaceFlag;

export type WorkerCommandOptions = Omit<ServeCommandOptions, 'port' | 'host' | 'worker'>;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The sign-in link of a server on this machine: a one-time code in the URL
 * fragment (never sent by the browser, never in a log line). The page trades
 * it once (`POST /api/sign-in`) for a token of the user `local`, revoked when
 * the server stops; a second use of the link is refused.
 */
function signInLinks(store: Store): SignInLinks & { revoke(): Promise<void> } {
  const codes = createSignInCodes();
  const minted: string[] = [];
  return {
    codes,
    async mint(signal) {
      signal.throwIfAborted();
      const user = await store.auth.ensureUser('local');
      const { token, record } = await store.auth.createToken(user.id);
      minted.push(record.id);
      return token;
    },
    async revoke() {
      for (const id of minted) await store.auth.revokeToken(id).catch(() => undefined);
    },
  };
}

/**
 * `cadre serve`: store, core (with a run worker unless --no-worker), HTTP
 * server. SIGTERM or Ctrl-C drains: no new claims, runs in flight get
 * --drain-seconds to finish their step, the rest are handed over (their
 * leases expire now) for another process; a second signal hands over at once.
 */
export async function serveCommand(options: ServeCommandOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  let store: Store | undefined;
  let service: RunService | undefined;
  let app: FastifyInstance | undefined;
  let signIn: ReturnType<typeof signInLinks> | undefined;
  try {
    const port = parsePort(options.port);
    const drainMs = parseDrain(options.drainSeconds);
    const logs = await logSetup(options, io, style);
    let confinement: string;
    ({ store, service, confinement } = await openCore(
      options,
      io,
      options.worker,
      logs.log,
      style,
      logs.pretty,
    ));
    const { buildServer } = await import('../../server/http/build-server.js');
    const { parseTrustProxy } = await import('../../server/http/trust-proxy.js');
    // Only for a person at a terminal: JSON logs are kept, and a sign-in link does not belong in them.
    if (LOOPBACK.has(options.host) && logs.pretty) signIn = signInLinks(store);
    app = buildServer({
      ...(signIn ? { signIn } : {}),
      service,
      store,
      log: logs.options,
      ...(io.env.CADRE_RATE_LIMIT
        ? {
            rateLimit: {
              max: positive(io.env.CADRE_RATE_LIMIT, 'CADRE_RATE_LIMIT'),
              timeWindow: '1 minute',
            },
          }
        : {}),
      timeouts: httpTimeouts(io.env),
      ...(io.env.CADRE_AUTH_FAILURE_LIMIT
        ? {
            authFailureLimit: {
              max: positive(io.env.CADRE_AUTH_FAILURE_LIMIT, 'CADRE_AUTH_FAILURE_LIMIT'),
              windowMs: 60_000,
            },
          }
        : {}),
      trustProxy: parseTrustProxy(io.env.CADRE_TRUST_PROXY),
    });
    // The web page at `/` (threads, live runs, approval cards); the API stays under /api.
    const { registerWebUi } = await import('../../server/web-ui.js');
    registerWebUi(app);
    const address = await app.listen({ host: options.host, port }).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      throw new ConfigError(`Cannot listen on ${options.host}:${port} (${String(code ?? error)}).`);
    });
    if (!LOOPBACK.has(options.host))
      io.stderr(
        `${style.yellow('warning')} listening beyond this machine (${options.host}); use TLS in front.\n`,
      );
    io.stdout(
      `${logs.stamp()}Cadre listening on ${address}${options.worker ? '' : ' (no worker: runs are driven by `cadre worker`)'}\n`,
    );
    io.stdout(`${logs.stamp()}${confinement}\n`);
    if (signIn)
      io.stderr(
        `Sign in: ${style.bold(`${address}/#token=${signIn.codes.issue()}`)}\n  ${style.dim('(works once, within 15 minutes, on this machine; its session lasts until this server stops; `cadre token create --user NAME` makes a lasting token)')}\n`,
      );
    await drainOnSignal(service, drainMs, io, logs.log);
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io.stderr, style);
  } finally {
    // The core first (its runs finish or are handed over), then the server, then the store.
    await service?.close();
    await app?.close();
    await signIn?.revoke();
    await store?.close();
  }
}

/** `cadre worker`: drives queued runs from the shared database; no HTTP. Stops as `serve` does. */
export async function workerCommand(options: WorkerCommandOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  let store: Store | undefined;
  let service: RunService | undefined;
  try {
    const drainMs = parseDrain(options.drainSeconds);
    const logs = await logSetup(options, io, style);
    let confinement: string;
    ({ store, service, confinement } = await openCore(
      options,
      io,
      true,
      logs.log,
      style,
      logs.pretty,
    ));
    io.stdout(`${logs.stamp()}Cadre worker running\n`);
    io.stdout(`${logs.stamp()}${confinement}\n`);
    await drainOnSignal(service, drainMs, io, logs.log);
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io.stderr, style);
  } finally {
    await service?.close();
    await store?.close();
  }
}

async function openCore(
  options: WorkerCommandOptions,
  io: CliIO,
  worker: boolean,
  log: Logger,
  style: Style,
  /** Logs for a person (else JSON lines: the warning goes through the logger). */
  pretty: boolean,
): Promise<{ store: Store; service: RunService; confinement: string }> {
  const { openStore } = await import('../../store/open-store.js');
  const { loadAuditKey } = await import('../../store/audit-key.js');
  const auditKey = await loadAuditKey({ env: io.env, cwd: io.cwd });
  const url = storeUrlFor(options, io);
  const workspaces = await serverWorkspaces(io, options.workspace, options.workspaceScope, url);
  const store = await openStore({ url, auditKey });
  try {
    const { createRunService } = await import('../../server/core/create-run-service.js');
    const service = await createRunService({
      store,
      cwd: io.cwd,
      workspace: workspaces.plan,
      protectedPaths: workspaces.protectedPaths,
      env: io.env,
      ...(options.model ? { model: options.model } : {}),
      ...(options.agents.length > 0
        ? { agentDirs: options.agents.map((dir) => resolve(io.cwd, dir)) }
        : {}),
      ...(options.policy ? { policyFile: options.policy } : {}),
      worker: worker ? workerTuning(io.env) : false,
      onError: (error, runId) =>
        log.error({ err: error, ...(runId ? { runId } : {}) }, 'worker: run failed'),
      onWarning: (message) => log.warn(message),
      // On stderr whatever the log level: the page would otherwise fail on the first message.
      onNoModel: (message) =>
        pretty ? io.stderr(`${style.yellow('warning')} ${message}\n`) : log.warn(message),
      trust: options.trustProject ? { oneRun: true } : {},
    });
    const confinement = await describeConfinement(io.env);
    return { store, service, confinement: `${workspaces.description}; ${confinement}` };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * Lease and poll intervals can be tuned (tests use short leases to see takeovers quickly);
 * CADRE_STORE_AFTER_MS=0 stores every run as it starts.
 */
function workerTuning(env: NodeJS.ProcessEnv): {
  leaseMs?: number;
  pollMs?: number;
  storeAfterMs?: number;
} {
  return {
    ...(env.CADRE_LEASE_MS ? { leaseMs: positive(env.CADRE_LEASE_MS, 'CADRE_LEASE_MS') } : {}),
    ...(env.CADRE_POLL_MS ? { pollMs: positive(env.CADRE_POLL_MS, 'CADRE_POLL_MS') } : {}),
    ...(env.CADRE_STORE_AFTER_MS
      ? { storeAfterMs: nonNegativeInteger(env.CADRE_STORE_AFTER_MS, 'CADRE_STORE_AFTER_MS') }
      : {}),
  };
}

function nonNegativeInteger(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be 0 or more.`);
  return n;
}

/** Waits for Ctrl-C or SIGTERM, then drains; a second signal hands the rest over at once. */
async function drainOnSignal(
  service: RunService,
  drainMs: number,
  io: CliIO,
  log: Logger,
): Promise<void> {
  await nextStopSignal(io);
  log.info(`Stopping: runs in flight get up to ${drainMs / 1000} s to finish their step…`);
  const draining = service.drain(drainMs);
  const second = nextStopSignal(io).then(() => service.drain(0));
  const { finished, handedOver } = await draining;
  void second.catch(() => undefined);
  if (finished + handedOver > 0)
    log.info(`Finished ${finished} step(s); handed ${handedOver} run(s) over to other processes.`);
}

/** Resolves on the next Ctrl-C (through the CLI's interrupt hook) or SIGTERM. */
function nextStopSignal(io: CliIO): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      unsubscribe?.();
      process.off('SIGTERM', stop);
      done();
    };
    const unsubscribe = io.onInterrupt?.(stop);
    process.once('SIGTERM', stop);
  });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new ConfigError(`--port must be a number from 0 to 65535, got '${value}'.`);
  return port;
}

function parseDrain(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || seconds > 3600)
    throw new ConfigError(`--drain-seconds must be a number from 0 to 3600, got '${value}'.`);
  return seconds * 1000;
}

function positive(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer.`);
  return n;
}

/** Request, header and keep-alive limits (milliseconds; 0 turns a request or header limit off). */
function httpTimeouts(env: NodeJS.ProcessEnv): {
  requestMs?: number;
  headersMs?: number;
  keepAliveMs?: number;
  maxRequestsPerSocket?: number;
} {
  const read = (name: string, min: number): number | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new ConfigError(`${name} must be an integer of at least ${min}.`);
    return n;
  };
  const requestMs = read('CADRE_REQUEST_TIMEOUT_MS', 0);
  const headersMs = read('CADRE_HEADERS_TIMEOUT_MS', 0);
  const keepAliveMs = read('CADRE_KEEP_ALIVE_TIMEOUT_MS', 1);
  const maxRequestsPerSocket = read('CADRE_MAX_REQUESTS_PER_SOCKET', 0);
  return {
    ...(requestMs !== undefined ? { requestMs } : {}),
    ...(headersMs !== undefined ? { headersMs } : {}),
    ...(keepAliveMs !== undefined ? { keepAliveMs } : {}),
    ...(maxRequestsPerSocket !== undefined ? { maxRequestsPerSocket } : {}),
  };
}

interface LogSetup {
  /** For the HTTP server's own logger. */
  options: LogOptions;
  /** The command's lines: worker failures, stopping. */
  log: Logger;
  /** A time prefix for the ready line when logs are readable lines, else nothing. */
  stamp: () => string;
  /** Readable lines for a person (else JSON lines). */
  pretty: boolean;
}

/** Logs go to stderr, so stdout keeps only the ready line that scripts wait for. */
async function logSetup(
  options: Pick<ServeCommandOptions, 'logLevel' | 'logFormat'>,
  io: CliIO,
  style: Style,
): Promise<LogSetup> {
  const { resolveLogSettings } = await import('../../server/http/log-settings.js');
  const { clock, prettyDestination } = await import('../../server/http/pretty-log.js');
  const { createLogger } = await import('../../server/http/logger.js');
  const { level, format } = resolveLogSettings({
    ...(options.logLevel !== undefined ? { level: options.logLevel } : {}),
    ...(options.logFormat !== undefined ? { format: options.logFormat } : {}),
    env: io.env,
    isTTY: io.isTTY,
  });
  const pretty = format === 'pretty';
  const stream = pretty ? prettyDestination(io.stderr, style) : { write: io.stderr };
  const logOptions: LogOptions = { level, stream };
  return {
    options: logOptions,
    log: createLogger(logOptions),
    stamp: () => (pretty ? `${style.dim(clock(Date.now()))} ` : ''),
    pretty,
  };
}
