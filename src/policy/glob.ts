import { compileSafeGlob } from '../util/safe-glob.js';

const GLOB_SYNTAX = /[*?[\]{}\\]/;

/**
 * True when `value` matches the glob. Case-insensitive (addresses are
 * normalised to lower case, tool names are lower case), and names starting
 * with a dot match like any other, so `*@example.com` also matches
 * `first.last@example.com`. Values come from the model: matching is linear
 * time (no backtracking), and a glob that cannot be compiled matches nothing.
 */
export function globMatch(pattern: string, value: string): boolean {
  // Most rules name a tool or an address outright: no pattern to compile.
  if (!GLOB_SYNTAX.test(pattern)) return pattern.toLowerCase() === value.toLowerCase();
  const compiled = compileSafeGlob(pattern.toLowerCase());
  return compiled.ok && compiled.test(value.toLowerCase());
}
