import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

export interface LogOptions {
  /** Default `info`; `silent` for none. */
  level?: LevelWithSilent;
  /** Where lines go (default stderr, so stdout stays for the CLI's own output); tests pass a capture. */
  stream?: DestinationStream;
}

/**
 * Secrets and payloads never reach the log: Fastify's request serializer
 * keeps only method, url and addresses, and these paths are censored in
 * anything else that is logged (errors with attached context included).
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'token',
  '*.token',
  'prompt',
  '*.prompt',
  'args',
  '*.args',
  'body',
  '*.body',
  'feedback',
  '*.feedback',
  'err.details',
];

export function createLogger(options: LogOptions = {}): Logger {
  return pino(
    { level: options.level ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    options.stream ?? pino.destination(2),
  );
}
