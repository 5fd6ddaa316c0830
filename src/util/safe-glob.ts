import { MAX_PATTERN_CHARS, compileSafePattern, type SafePatternResult } from './safe-regex.js';

/**
 * Compiles a glob into a linear-time matcher for whole '/'-separated relative
 * paths. picomatch turns globs into backtracking RegExps, where a glob like
 * "*a*a*a*a*a*a*a*a*b" took 93 s against one 60-character file name.
 *
 * Syntax: `*` and `?` within a name, `**` as a whole segment across
 * directories, `[abc]` `[a-z]` `[!abc]` classes, nested `{a,b}` alternatives
 * and `\` escapes. Names starting with a dot match like any other.
 * Parentheses are literal (no extglobs); brace ranges such as `{1..3}` are refused.
 */
export function compileSafeGlob(glob: string): SafePatternResult {
  if (glob.length > MAX_PATTERN_CHARS) {
    return {
      ok: false,
      reason: `the pattern is ${glob.length} characters long; the limit is ${MAX_PATTERN_CHARS}`,
    };
  }
  // A native RegExp, but at most quadratic in the capped length: braces end every match.
  const range = /\{[^{},]*\.\.[^{},]*\}/.exec(glob);
  if (range !== null) {
    // Taken literally it would silently match nothing; say how to write it instead.
    return {
      ok: false,
      reason: `brace ranges such as ${range[0]} are not supported; list them: {1,2,3}`,
    };
  }
  // The regex is longer than the glob, whose length is capped above.
  return compileSafePattern(`^${toRegexSource(glob)}$`, '', { maxChars: Infinity });
}

const escape = (ch: string): string => (/[\\^$.*+?()[\]{}|]/.test(ch) ? `\\${ch}` : ch);

function toRegexSource(glob: string): string {
  const braces = braceFragments(glob);
  // `**` is a globstar only as a whole segment; elsewhere ("a**b") it is a plain `*`.
  const startsSegment = (at: number): boolean =>
    at < 0 || glob[at] === '/' || braces.get(at) === '(?:' || braces.get(at) === '|';
  const endsSegment = (at: number): boolean =>
    at >= glob.length || glob[at] === '/' || braces.get(at) === '|' || braces.get(at) === ')';
  let out = '';
  let i = 0;
  while (i < glob.length) {
    const ch = glob[i] ?? '';
    const brace = braces.get(i);
    const cls = ch === '[' ? readClass(glob, i) : undefined;
    if (brace !== undefined) {
      out += brace;
      i += 1;
    } else if (cls !== undefined) {
      out += cls.source;
      i = cls.end;
    } else if (ch === '*') {
      let end = i;
      while (glob[end] === '*') end += 1;
      if (end - i === 1 || !startsSegment(i - 1) || !endsSegment(end)) {
        out += '[^/]*';
      } else if (glob[end] === '/') {
        // "**/" may also match no directory at all, so "**/*.ts" finds "a.ts".
        out += '(?:[^/]*/)*';
        end += 1;
      } else {
        out += '[\\s\\S]*';
      }
      i = end;
    } else if (ch === '\\' && i + 1 < glob.length) {
      out += escape(glob[i + 1] ?? '');
      i += 2;
    } else {
      out += ch === '?' ? '[^/]' : escape(ch);
      i += 1;
    }
  }
  return out;
}

/**
 * Regex fragments for the braces that hold alternatives, by position. Matched
 * in one pass with a stack: retrying each unclosed "{" would be exponential.
 */
function braceFragments(glob: string): Map<number, string> {
  const fragments = new Map<number, string>();
  const open: { at: number; commas: number[] }[] = [];
  for (let i = 0; i < glob.length; i += 1) {
    const ch = glob[i];
    if (ch === '\\') i += 1;
    else if (ch === '[') i = (readClass(glob, i)?.end ?? i + 1) - 1;
    else if (ch === '{') open.push({ at: i, commas: [] });
    else if (ch === ',') open.at(-1)?.commas.push(i);
    else if (ch === '}') {
      const brace = open.pop();
      if (brace === undefined || brace.commas.length === 0) continue;
      fragments.set(brace.at, '(?:').set(i, ')');
      for (const comma of brace.commas) fragments.set(comma, '|');
    }
  }
  return fragments;
}

/** A `[...]` class starting at `start`, or undefined when it does not close within the name. */
function readClass(glob: string, start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  const negated = glob[i] === '!' || glob[i] === '^';
  if (negated) i += 1;
  let body = '';
  for (let first = true; i < glob.length; first = false) {
    const ch = glob[i] ?? '';
    if (ch === ']' && !first) return { source: `[${negated ? '^/' : ''}${body}]`, end: i + 1 };
    if (ch === '/') return undefined;
    if (ch === '\\' && i + 1 < glob.length) {
      body += escape(glob[i + 1] ?? '');
      i += 2;
    } else {
      // "-" stays unescaped: it is the range operator in [a-z].
      body += escape(ch);
      i += 1;
    }
  }
  return undefined;
}
