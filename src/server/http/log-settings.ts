import type { LevelWithSilent } from 'pino';
import { ConfigError } from '../../errors/cadre-error.js';

export type LogFormat = 'json' | 'pretty';

export interface LogSettings {
  level: LevelWithSilent;
  format: LogFormat;
}

const LOG_LEVELS: readonly LevelWithSilent[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/**
 * The flag wins over the environment. Without either, a terminal gets readable
 * lines and anything else (a file, a pipe, a log collector) gets JSON lines.
 */
export function resolveLogSettings(input: {
  level?: string;
  format?: string;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
}): LogSettings {
  const level = pick(
    LOG_LEVELS,
    input.level !== undefined ? ['--log-level', input.level] : undefined,
    nonEmpty('CADRE_LOG_LEVEL', input.env.CADRE_LOG_LEVEL),
  );
  const format = pick(
    LOG_FORMATS,
    input.format !== undefined ? ['--log-format', input.format] : undefined,
    nonEmpty('CADRE_LOG_FORMAT', input.env.CADRE_LOG_FORMAT),
  );
  return { level: level ?? 'info', format: format ?? (input.isTTY ? 'pretty' : 'json') };
}

function nonEmpty(name: string, value: string | undefined): [string, string] | undefined {
  return value === undefined || value === '' ? undefined : [name, value];
}

function pick<T extends string>(
  allowed: readonly T[],
  ...sources: Array<[name: string, value: string] | undefined>
): T | undefined {
  const source = sources.find((s) => s !== undefined);
  if (!source) return undefined;
  const [name, raw] = source;
  const value = raw.toLowerCase();
  if (!(allowed as readonly string[]).includes(value))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}; got '${raw}'.`);
  return value as T;
}
