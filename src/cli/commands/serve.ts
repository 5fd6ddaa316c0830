import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { LevelWithSilent } from 'pino';
import { ConfigError } from '../../errors/cadre-error.js';
import type { RunService } from '../../server/run-service-types.js';
import type { Store } from '../../store/types.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle } from '../style.js';
import { storeUrlFor } from './token.js';

export interface ServeCommandOptions {
  port: string;
  host: string;
  db?: string;
  model?: string;
  /** Agent folders besides ./agents and .cadre/agents (repeatable). */
  agents: string[];
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * `cadre serve`: store, core, HTTP server; runs until Ctrl-C or SIGTERM,
 * then closes the server (running runs are cancelled), the core and the store.
 * The core recovers runs an earlier process left mid-flight when it is created.
 */
export async function serveCommand(options: ServeCommandOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  let store: Store | undefined;
  let service: RunService | undefined;
  let app: FastifyInstance | undefined;
  try {
    const port = parsePort(options.port);
    const { openStore } = await import('../../store/open-store.js');
    store = await openStore({ url: storeUrlFor(options, io) });
    const { createRunService } = await import('../../server/core/create-run-service.js');
    service = await createRunService({
      store,
      cwd: io.cwd,
      env: io.env,
      ...(options.model ? { model: options.model } : {}),
      ...(options.agents.length > 0
        ? { agentDirs: options.agents.map((dir) => resolve(io.cwd, dir)) }
        : {}),
    });
    const { buildServer } = await import('../../server/http/build-server.js');
    app = buildServer({
      service,
      store,
      log: { level: logLevel(io.env.CADRE_LOG_LEVEL) },
      ...(io.env.CADRE_RATE_LIMIT
        ? { rateLimit: { max: positive(io.env.CADRE_RATE_LIMIT), timeWindow: '1 minute' } }
        : {}),
    });
    // The web page at `/` (threads, live runs, approval cards); the API stays under /api.
    const { registerWebUi } = await import('../../server/web-ui.js');
    registerWebUi(app);
    const address = await app.listen({ host: options.host, port }).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      throw new ConfigError(`Cannot listen on ${options.host}:${port} (${String(code ?? error)}).`);
    });
    const stopped = stopSignal(io);
    if (!LOOPBACK.has(options.host))
      io.stderr(
        `${style.yellow('warning')} listening beyond this machine (${options.host}); use TLS in front.\n`,
      );
    io.stdout(`Cadre listening on ${address}\n`);
    await stopped;
    io.stderr('Stopping…\n');
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io.stderr, style);
  } finally {
    // Server first (it cancels running runs), then the core, then the store they write to.
    await app?.close();
    await service?.close();
    await store?.close();
  }
}

/** Resolves on the first Ctrl-C (through the CLI's interrupt hook) or SIGTERM. */
function stopSignal(io: CliIO): Promise<void> {
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

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new ConfigError(
      `CADRE_RATE_LIMIT must be a positive integer (requests a minute per token).`,
    );
  return n;
}

function logLevel(value: string | undefined): LevelWithSilent {
  const level = (value ?? 'info').toLowerCase();
  if (!LEVELS.has(level))
    throw new ConfigError(`CADRE_LOG_LEVEL must be one of ${[...LEVELS].join(', ')}.`);
  return level as LevelWithSilent;
}
