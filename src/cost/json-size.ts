/** A value's size as the estimate reads it: its JSON's length, and the images it carries. */
export interface JsonSize {
  chars: number;
  images: number;
}

/** Deeper than this, the rest is measured by JSON.stringify itself (which names a cycle). */
const MAX_DEPTH = 64;
/** Characters JSON.stringify escapes: a string with none is its length plus the quotes. */
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * The length of `JSON.stringify(value)` with every `signature` left out and
 * every `images` array left out and counted, computed without building the
 * string: measuring a request runs on every turn, and stringifying even a
 * small message (then searching it) cost more than the rest of the turn.
 * Same rules as JSON.stringify: toJSON, undefined and functions omitted in
 * objects and null in arrays, non-finite numbers as null.
 */
export function jsonSize(value: unknown): JsonSize {
  const size: JsonSize = { chars: 0, images: 0 };
  size.chars = valueChars(resolved(value, ''), size, 0) ?? 0;
  return size;
}

/** What JSON.stringify writes for `value` found under `key`: its toJSON() when it has one. */
function resolved(value: unknown, key: string | number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function'
    ? (toJSON as (key: string) => unknown).call(value, String(key))
    : value;
}

/**
 * JSON characters of the member `key` holding `value` (its toJSON applied), or
 * undefined where JSON leaves it out: for a caller that walks the object itself.
 */
export function memberChars(
  value: unknown,
  key: string,
  size: JsonSize,
  depth: number,
): number | undefined {
  return valueChars(resolved(value, key), size, depth);
}

/** JSON characters of `v` (toJSON already applied), or undefined where JSON leaves it out. */
function valueChars(v: unknown, size: JsonSize, depth: number): number | undefined {
  switch (typeof v) {
    case 'string':
      return stringChars(v);
    case 'number':
      return numberChars(v);
    case 'boolean':
      return v ? 4 : 5;
    case 'bigint':
      // Throws as JSON.stringify does, unless BigInt has been given a toJSON.
      return JSON.stringify(v)?.length;
    case 'object':
      if (v === null) return 4;
      if (depth >= MAX_DEPTH) return stringified(v, size);
      if (v instanceof Number || v instanceof String || v instanceof Boolean)
        return JSON.stringify(v).length;
      return Array.isArray(v)
        ? arrayChars(v, size, depth + 1)
        : objectChars(v as Record<string, unknown>, size, depth + 1);
    default:
      // undefined, functions and symbols: left out of an object, null in an array.
      return undefined;
  }
}

function arrayChars(array: readonly unknown[], size: JsonSize, depth: number): number {
  let chars = 2 + Math.max(0, array.length - 1);
  for (let i = 0; i < array.length; i++)
    chars += valueChars(resolved(array[i], i), size, depth) ?? 4;
  return chars;
}

function objectChars(object: Record<string, unknown>, size: JsonSize, depth: number): number {
  const proto: unknown = Object.getPrototypeOf(object);
  // A plain object has no inherited enumerable keys: for-in reads its own without an array of them.
  if (proto !== Object.prototype && proto !== null)
    return entriesChars(object, Object.keys(object), size, depth);
  let chars = 2;
  let entries = 0;
  for (const key in object) {
    const entry = entryChars(object, key, size, depth);
    if (entry === undefined) continue;
    chars += entry;
    entries++;
  }
  return chars + Math.max(0, entries - 1);
}

function entriesChars(
  object: Record<string, unknown>,
  keys: readonly string[],
  size: JsonSize,
  depth: number,
): number {
  let chars = 2;
  let entries = 0;
  for (const key of keys) {
    const entry = entryChars(object, key, size, depth);
    if (entry === undefined) continue;
    chars += entry;
    entries++;
  }
  return chars + Math.max(0, entries - 1);
}

/** `"key":value`'s characters, or undefined where JSON leaves the member out. */
function entryChars(
  object: Record<string, unknown>,
  key: string,
  size: JsonSize,
  depth: number,
): number | undefined {
  if (key === 'signature') return undefined;
  const inner = resolved(object[key], key);
  if (key === 'images' && Array.isArray(inner)) {
    size.images += inner.length;
    return undefined;
  }
  const valueLength = valueChars(inner, size, depth);
  return valueLength === undefined ? undefined : stringChars(key) + 1 + valueLength;
}

/** Below this length a string is scanned by hand: cheaper than calling the regular expression. */
const SHORT = 32;

export function stringChars(text: string): number {
  const length = text.length;
  if (length > SHORT) return ESCAPED.test(text) ? JSON.stringify(text).length : length + 2;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff))
      return JSON.stringify(text).length;
  }
  return length + 2;
}

/** Digits of a small integer counted without making its string (most numbers in a request). */
function numberChars(n: number): number {
  if (Number.isInteger(n) && n >= 0 && n < 1e9) {
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    return digits;
  }
  return Number.isFinite(n) ? String(n).length : 4;
}

/** The old way, for a value nested too deep to walk: stringify it with the same rules. */
function stringified(value: object, size: JsonSize): number {
  const json = JSON.stringify(value, (key, inner: unknown) => {
    if (key === 'signature') return undefined;
    if (key === 'images' && Array.isArray(inner)) {
      size.images += inner.length;
      return undefined;
    }
    return inner;
  });
  return json.length;
}
