import { splitWords } from './shell-quote.js';
import { splitSimpleCommands } from './command-syntax.js';
import { refuseGitOptions } from './git-options.js';

/**
 * How a definition wrote its shell patterns. `claude` and `cadre` share one
 * syntax (`git status:*`, `npm test`, `npm run test *`); in `gemini` a plain
 * pattern (`git`) is a word prefix.
 */
export type PatternDialect = 'claude' | 'gemini' | 'cadre';

/** A parsed pattern; `source` is the text as written, for reasons. */
export type CommandPattern =
  | { kind: 'any'; source: string }
  /** The command is exactly these words. */
  | { kind: 'exact'; source: string; words: readonly string[] }
  /** The command starts with these whole words. */
  | { kind: 'prefix'; source: string; words: readonly string[] }
  /** `*` stands for any run of characters over the command's words joined by spaces. */
  | { kind: 'glob'; source: string; regex: RegExp };

export type CommandCheck = { ok: true } | { ok: false; reason: string };

/** Parses one pattern as its dialect writes it. */
export function parseCommandPattern(text: string, dialect: PatternDialect): CommandPattern {
  const source = normaliseSpaces(text);
  const cadre = dialect === 'gemini' ? toCadrePattern(source, 'gemini') : source;
  if (cadre === '' || cadre === '*') return { kind: 'any', source };
  if (cadre.endsWith(':*')) {
    const words = patternWords(cadre.slice(0, -2));
    return words.length === 0 ? { kind: 'any', source } : { kind: 'prefix', source, words };
  }
  if (hasWildcard(cadre)) return { kind: 'glob', source, regex: globRegex(cadre) };
  return { kind: 'exact', source, words: patternWords(cadre) };
}

/**
 * Rewrites a pattern in Cadre's own syntax, so a loader can hand every
 * pattern to the tool as plain text: Gemini's `git` becomes `git:*`.
 */
export function toCadrePattern(text: string, dialect: PatternDialect): string {
  const source = normaliseSpaces(text);
  if (dialect !== 'gemini' || source === '' || source === '*') return source;
  return `${source}:*`;
}

/**
 * Checks that every simple command in `command` matches some pattern.
 * Constructs the patterns cannot vet (substitutions, redirections to files,
 * subshells, …) refuse the whole command unless a pattern allows anything.
 */
export function checkCommand(command: string, patterns: readonly CommandPattern[]): CommandCheck {
  if (patterns.some((pattern) => pattern.kind === 'any')) return { ok: true };
  const allowed = `(${describePatterns(patterns)})`;
  const split = splitSimpleCommands(command);
  if (!split.ok) {
    return {
      ok: false,
      reason: `the command uses ${split.construct}, which the allowed commands ${allowed} cannot vet`,
    };
  }
  for (const simple of split.commands) {
    if (!patterns.some((pattern) => matches(pattern, simple.words))) {
      const shown = clip(renderWords(simple.words), 120);
      return {
        ok: false,
        reason: `the command "${shown}" is outside the allowed commands ${allowed}`,
      };
    }
    const dangerous = refuseGitOptions(simple.words);
    if (dangerous !== undefined) {
      return {
        ok: false,
        reason: `${dangerous} can write files, run programs or read outside the workspace, which the allowed commands ${allowed} do not cover`,
      };
    }
  }
  return { ok: true };
}

function matches(pattern: CommandPattern, words: readonly string[]): boolean {
  switch (pattern.kind) {
    case 'any':
      return true;
    case 'exact':
      return words.length === pattern.words.length && startsWith(words, pattern.words);
    case 'prefix':
      return startsWith(words, pattern.words);
    case 'glob':
      return pattern.regex.test(renderWords(words));
    default:
      return pattern satisfies never;
  }
}

function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= words.length && prefix.every((word, i) => words[i] === word);
}

/**
 * Joins words with single spaces for glob matching; a word holding a space
 * or quote is single-quoted so it cannot pass for several words.
 */
function renderWords(words: readonly string[]): string {
  return words
    .map((word) =>
      word === '' || /[\s'"]/.test(word) ? `'${word.replaceAll("'", `'\\''`)}'` : word,
    )
    .join(' ');
}

function patternWords(text: string): string[] {
  // As in commands, a `#` inside a word is literal, not a comment.
  const escaped = text.replace(/(?<=\S)#/g, '\\#');
  return splitWords(escaped, (name) => `$${name}`).map((entry) => {
    if (typeof entry === 'string') return entry;
    if ('op' in entry) return entry.op === 'glob' ? entry.pattern : entry.op;
    return `#${entry.comment}`;
  });
}

/** A `*` not escaped as `\*`. */
function hasWildcard(text: string): boolean {
  return /(^|[^\\])(\\\\)*\*/.test(text);
}

/**
 * `*` matches any run of characters; `\*` is a literal star. A trailing
 * ` *` also matches nothing, so `ls *` allows a bare `ls` but not `lsof`.
 */
function globRegex(text: string): RegExp {
  const optionalTail = text.endsWith(' *');
  const body = optionalTail ? text.slice(0, -2) : text;
  let source = '';
  for (let i = 0; i < body.length; i += 1) {
    const c = body.charAt(i);
    if (c === '\\' && (body.charAt(i + 1) === '*' || body.charAt(i + 1) === '\\')) {
      source += escapeRegex(body.charAt(i + 1));
      i += 1;
    } else {
      source += c === '*' ? '.*' : escapeRegex(c);
    }
  }
  return new RegExp(`^${source}${optionalTail ? '(?: .*)?' : ''}$`, 's');
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function describePatterns(patterns: readonly CommandPattern[]): string {
  if (patterns.length === 0) return 'none';
  return clip(patterns.map((pattern) => pattern.source).join(', '), 200);
}

function normaliseSpaces(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * For rules that restrict (deny, ask): true when any simple command of
 * `command` matches a pattern, or when the command cannot be vetted at all,
 * so `echo hi; rm -rf x` is caught by a rule on `rm:*` and an unreadable
 * command never slips past a restriction.
 */
export function anyCommandMatches(command: string, patterns: readonly CommandPattern[]): boolean {
  if (patterns.some((pattern) => pattern.kind === 'any')) return true;
  const split = splitSimpleCommands(command);
  if (!split.ok) return true;
  return split.commands.some((simple) =>
    patterns.some((pattern) => matches(pattern, simple.words)),
  );
}
