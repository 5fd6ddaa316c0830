import { createRequire } from 'node:module';
import type * as Re2js from 're2js';

// re2js loads on first use, like picomatch, so importing the policy engine stays cheap.
const load = createRequire(import.meta.url);

/** Longer patterns are refused: nobody writes them by hand, and compile cost grows with size. */
export const MAX_PATTERN_CHARS = 1_000;
/**
 * RE2 instructions allowed. Matching is linear in the input, but the factor is
 * the program size when the lazy DFA falls back to the NFA (about 11 ns per
 * character per instruction, so `a[ab]{999}$` on a 1 MB line took 7 s); the cap
 * bounds that while fitting any literal under MAX_PATTERN_CHARS.
 */
const MAX_PROGRAM_SIZE = 2_000;

/** A pattern compiled for the linear-time engine: matching cannot backtrack catastrophically. */
export interface SafePattern {
  ok: true;
  /** True when the pattern matches somewhere in `input`, like RegExp.prototype.test without `g`. */
  test(input: string): boolean;
}

export type SafePatternResult = SafePattern | { ok: false; reason: string };

export interface SafePatternOptions {
  /** Overrides MAX_PATTERN_CHARS, for patterns generated from a shorter, already capped source. */
  maxChars?: number;
}

/**
 * Compiles a JavaScript regular expression written by a model or a policy
 * author for RE2 (via re2js), whose matching time is linear in the input. The
 * pattern must also be valid JavaScript, so syntax errors read as they always
 * did; what RE2 cannot express (backreferences, lookaround, repeats over 1000)
 * comes back as a reason instead of a backtracking fallback.
 */
export function compileSafePattern(
  pattern: string,
  flags = '',
  options: SafePatternOptions = {},
): SafePatternResult {
  const maxChars = options.maxChars ?? MAX_PATTERN_CHARS;
  if (pattern.length > maxChars) {
    return fail(`the pattern is ${pattern.length} characters long; the limit is ${maxChars}`);
  }
  const { RE2JS } = load('re2js') as typeof Re2js;
  const re2Flags = toRe2Flags(RE2JS, flags);
  if (typeof re2Flags === 'string') return fail(re2Flags);
  try {
    // Parse only, never executed: RegExp construction is linear in the pattern's length.
    new RegExp(pattern, flags);
  } catch (error) {
    // V8 repeats the pattern in its message ("Invalid regular expression: /(/: ..."); keep the reason.
    return fail(
      (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, ''),
    );
  }
  const unsupported = findUnsupported(pattern);
  if (unsupported !== undefined) {
    return fail(
      `${unsupported} is not supported: patterns run on a linear-time engine (RE2), ` +
        'which has no backreferences or lookaround',
    );
  }
  try {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), re2Flags);
    const size = compiled.programSize();
    if (size > MAX_PROGRAM_SIZE) {
      return fail(
        `the pattern expands to ${size} instructions; the limit is ${MAX_PROGRAM_SIZE} ` +
          '(use smaller repeat counts)',
      );
    }
    return { ok: true, test: (input) => compiled.test(input) };
  } catch (error) {
    const detail = (error as Error).message.replace(/^error parsing regexp: /, '');
    return fail(`the linear-time engine (RE2) cannot run it: ${detail}`);
  }
}

const fail = (reason: string): SafePatternResult => ({ ok: false, reason });

/** RE2JS flag bits for JavaScript flags, or why a flag cannot be honoured. */
function toRe2Flags(RE2JS: typeof Re2js.RE2JS, flags: string): number | string {
  let bits = 0;
  for (const flag of flags) {
    if (flag === 'i') bits |= RE2JS.CASE_INSENSITIVE;
    else if (flag === 'm') bits |= RE2JS.MULTILINE;
    else if (flag === 's') bits |= RE2JS.DOTALL;
    // RE2 always matches whole code points, which is what `u` asks for.
    else if (flag !== 'u') return `the flag "${flag}" is not supported`;
  }
  return bits;
}

/**
 * The first construct RE2 lacks, named for the error message. Checked here
 * rather than left to RE2 because re2js's JavaScript translation would turn
 * `\k<name>` into the literal "k<name>" instead of failing.
 */
function findUnsupported(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `the backreference \\${next}`;
      if (!inClass && next === 'k' && pattern[i + 2] === '<')
        return 'the named backreference \\k<…>';
      i += 1;
    } else if (inClass) {
      inClass = ch !== ']';
    } else if (ch === '[') {
      inClass = true;
    } else if (ch === '(' && pattern[i + 1] === '?') {
      const kind = pattern.slice(i + 2, i + 4);
      if (kind.startsWith('=') || kind.startsWith('!')) return `the lookahead (?${kind[0]}…)`;
      if (kind === '<=' || kind === '<!') return `the lookbehind (?${kind}…)`;
    }
  }
  return undefined;
}
