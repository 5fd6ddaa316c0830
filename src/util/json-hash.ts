import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './sha256.js';

/** `sha256:<hex>` of the canonical JSON of `value`. */
export function sha256Of(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}

/** A JSON-safe deep copy: what JSON.stringify would keep (functions and undefined dropped). */
export function jsonClone<T>(value: T): T {
  const text = JSON.stringify(value);
  return (text === undefined ? null : JSON.parse(text)) as T;
}
