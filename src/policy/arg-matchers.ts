import { compileSafePattern } from '../util/safe-regex.js';
import { globMatch } from './glob.js';
import {
  anyCommandMatches,
  checkCommand,
  parseCommandPattern,
} from '../tools/shell/command-patterns.js';
import type { ArgMatcher, PolicyMode, RuleScalar } from './types.js';

/**
 * How many elements of an array argument must match. A rule that allows must
 * hold for every element (one outside recipient must not ride along on an
 * `allow`); a rule that restricts fires when any element matches.
 */
export type Quantifier = 'all' | 'any';

export const quantifierFor = (decision: PolicyMode): Quantifier =>
  decision === 'allow' ? 'all' : 'any';

type ElementMatcher = string | { equals: RuleScalar } | { matches: string };

/** True when `value` (an argument, possibly missing) satisfies `matcher`. */
export function matchArg(matcher: ArgMatcher, value: unknown, quantifier: Quantifier): boolean {
  if (value === undefined) return false;
  if (typeof matcher === 'object' && 'max' in matcher) {
    const size = sizeOf(value);
    return size !== undefined && size <= matcher.max;
  }
  if (typeof matcher === 'object' && 'min' in matcher) {
    const size = sizeOf(value);
    return size !== undefined && size >= matcher.min;
  }
  if (typeof matcher === 'object' && 'commands' in matcher) {
    if (typeof value !== 'string') return false;
    const patterns = matcher.commands.map((text) => parseCommandPattern(text, 'cadre'));
    return quantifier === 'all'
      ? checkCommand(value, patterns).ok
      : anyCommandMatches(value, patterns);
  }
  const test = elementTest(matcher, quantifier);
  if (Array.isArray(value)) {
    if (value.length === 0) return false;
    return quantifier === 'all' ? value.every(test) : value.some(test);
  }
  return test(value);
}

/** The test for one element, with a `matches` pattern compiled once for all elements. */
function elementTest(matcher: ElementMatcher, quantifier: Quantifier): (value: unknown) => boolean {
  if (typeof matcher === 'string')
    return (value) => typeof value === 'string' && globMatch(matcher, value);
  if ('equals' in matcher) return (value) => matcher.equals === value;
  // Linear-time engine: the arguments come from the model, so a backtracking
  // RegExp like /^(a+)+$/ would let it stall the server on one decision.
  const pattern = compileSafePattern(matcher.matches, 'u');
  const isText = (value: unknown): value is string | number =>
    typeof value === 'string' || typeof value === 'number';
  // Policy files are checked at load; a pattern that cannot compile fails closed.
  if (!pattern.ok) return (value) => isText(value) && quantifier === 'any';
  return (value) => isText(value) && pattern.test(String(value));
}

/** Numbers by value, strings and arrays by length. */
function sizeOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  return undefined;
}
