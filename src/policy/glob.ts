import { createRequire } from 'node:module';
import type picomatchType from 'picomatch';

// picomatch loads on first use so importing the policy engine stays cheap (see cold-import.test.ts).
const load = createRequire(import.meta.url);

/**
 * True when `value` matches the glob. Case-insensitive (addresses are
 * normalised to lower case, tool names are lower case) and `dot` on, so
 * `*@example.com` also matches `first.last@example.com`.
 */
export function globMatch(pattern: string, value: string): boolean {
  const picomatch = load('picomatch') as typeof picomatchType;
  return picomatch.isMatch(value, pattern, { nocase: true, dot: true });
}
