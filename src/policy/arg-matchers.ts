import { globMatch } from './glob.js';
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
  const test = (item: unknown): boolean => matchElement(matcher, item, quantifier);
  if (Array.isArray(value)) {
    if (value.length === 0) return false;
    return quantifier === 'all' ? value.every(test) : value.some(test);
  }
  return test(value);
}

function matchElement(matcher: ElementMatcher, value: unknown, quantifier: Quantifier): boolean {
  if (typeof matcher === 'string') return typeof value === 'string' && globMatch(matcher, value);
  if ('equals' in matcher) return matcher.equals === value;
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  let pattern: RegExp;
  try {
    pattern = new RegExp(matcher.matches, 'u');
  } catch {
    // Policy files are checked at load; a bad pattern built in code fails closed.
    return quantifier === 'any';
  }
  return pattern.test(String(value));
}

/** Numbers by value, strings and arrays by length. */
function sizeOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  return undefined;
}
