import { sha256Hex } from './sha256.js';

/**
 * JSON with object keys sorted and no whitespace, so equal values always give
 * equal text (and equal hashes) whatever order their keys were written in.
 * Follows JSON.stringify otherwise: `toJSON` is honoured, undefined and
 * functions are left out of objects and become null in arrays. A value with
 * no JSON form at all (undefined, a function) is `null`, as in an array, so
 * a missing output or argument still has a text and a hash.
 */
export function canonicalJson(value: unknown): string {
  return encode(value, new Set()) ?? 'null';
}

/** sha256Hex(canonicalJson(value)): the inputHash of tool arguments, the hash of a definition. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

function encode(value: unknown, open: Set<object>): string | undefined {
  if (value !== null && typeof value === 'object' && hasToJson(value)) value = value.toJSON();
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol')
    return undefined;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (open.has(value)) throw new TypeError('canonicalJson: the value is circular');
  open.add(value);
  try {
    if (Array.isArray(value))
      return `[${value.map((item) => encode(item, open) ?? 'null').join(',')}]`;
    const fields: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const text = encode((value as Record<string, unknown>)[key], open);
      if (text !== undefined) fields.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${fields.join(',')}}`;
  } finally {
    open.delete(value);
  }
}

function hasToJson(value: object): value is { toJSON(): unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
