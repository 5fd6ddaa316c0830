import type { DestinationStream } from 'pino';

/** The colours a line needs; the CLI's Style fits (and is plain when colour is off). */
export interface LinePaint {
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

interface Serialized {
  msg?: string;
  message?: string;
  stack?: string;
  method?: string;
  url?: string;
  statusCode?: number;
}

/** pino's numeric levels. */
const LABELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields shown by the line's layout (or noise on a terminal), not as `key=value`. */
const LAID_OUT = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'req',
  'res',
  'err',
  'responseTime',
]);

/** `12:01:02` in local time: a terminal reader wants the wall clock, not an epoch. */
export function clock(time: number): string {
  const d = new Date(time);
  return [d.getHours(), d.getMinutes(), d.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
}

/**
 * One pino record as a terminal line: `12:01:02 POST /api/runs 200 45 ms` for a
 * finished request, `12:01:02 WARN message key=value` otherwise. Undefined drops
 * the record (the "incoming request" half: the finished line says it all).
 */
export function formatLogRecord(
  record: Record<string, unknown>,
  paint: LinePaint,
): string | undefined {
  if (record.msg === 'incoming request') return undefined;
  const level = typeof record.level === 'number' ? record.level : 30;
  const time = paint.dim(clock(typeof record.time === 'number' ? record.time : Date.now()));
  const req = asObject(record.req);
  const res = asObject(record.res);
  if (record.msg === 'request completed' && req && res) {
    const status = res.statusCode ?? 0;
    const ms = typeof record.responseTime === 'number' ? Math.round(record.responseTime) : 0;
    return `${time} ${req.method ?? '?'} ${req.url ?? '?'} ${statusPaint(status, paint)(String(status))} ${paint.dim(`${ms} ms`)}`;
  }
  const label = level === 30 ? '' : `${levelPaint(level, paint)(LABELS[level] ?? String(level))} `;
  const err = asObject(record.err);
  const extras = Object.entries(record)
    .filter(([key, value]) => !LAID_OUT.has(key) && isScalar(value))
    .map(([key, value]) => paint.dim(`${key}=${String(value)}`));
  const message = `${String(record.msg ?? '')}${err?.message ? `: ${err.message}` : ''}`;
  const line = [`${time} ${label}${message}`, ...extras].join(' ');
  // The stack helps on a terminal when something broke; its first line repeats the message.
  const stack = level >= 50 && err?.stack ? err.stack.split('\n').slice(1) : [];
  return [line, ...stack.map((l) => paint.dim(l))].join('\n');
}

/** A pino destination that writes readable lines through `write` (one call per record). */
export function prettyDestination(
  write: (text: string) => void,
  paint: LinePaint,
): DestinationStream {
  return {
    write(chunk: string) {
      for (const json of chunk.split('\n')) {
        if (json === '') continue;
        const line = formatJson(json, paint);
        if (line !== undefined) write(`${line}\n`);
      }
    },
  };
}

function formatJson(json: string, paint: LinePaint): string | undefined {
  try {
    const record: unknown = JSON.parse(json);
    const object = asObject(record);
    return object ? formatLogRecord(object as Record<string, unknown>, paint) : json;
  } catch {
    return json;
  }
}

function asObject(value: unknown): Serialized | undefined {
  return typeof value === 'object' && value !== null ? (value as Serialized) : undefined;
}

function isScalar(value: unknown): boolean {
  return ['string', 'number', 'boolean'].includes(typeof value);
}

function statusPaint(status: number, paint: LinePaint): (text: string) => string {
  if (status >= 500) return paint.red;
  if (status >= 400) return paint.yellow;
  if (status >= 300) return paint.cyan;
  return paint.green;
}

function levelPaint(level: number, paint: LinePaint): (text: string) => string {
  if (level >= 50) return paint.red;
  if (level >= 40) return paint.yellow;
  return paint.dim;
}
