import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level and `undefined` members left
 * out, so equal values always give equal text (and equal hashes) whatever
 * order their keys were written in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(toJsonValue(value)));
}

/** `sha256:<hex>` of the canonical JSON of `value`. */
export function sha256Of(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

/** A JSON-safe deep copy: what JSON.stringify would keep (functions and undefined dropped). */
export function jsonClone<T>(value: T): T {
  const text = JSON.stringify(value);
  return (text === undefined ? null : JSON.parse(text)) as T;
}

function toJsonValue(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
