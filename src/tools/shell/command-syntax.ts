import { splitWords } from './shell-quote.js';

/** One simple command of a command line: its words after quote removal. */
export interface SimpleCommand {
  words: readonly string[];
}

export type SplitResult =
  | { ok: true; commands: readonly SimpleCommand[] }
  /** `construct` names what could not be vetted, e.g. `command substitution $(…)`. */
  | { ok: false; construct: string };

// Words that make a simple command something else (a loop, a group, a negation).
const RESERVED_WORDS = new Set([
  '!',
  '{',
  '}',
  '[[',
  ']]',
  'case',
  'coproc',
  'do',
  'done',
  'elif',
  'else',
  'esac',
  'fi',
  'for',
  'function',
  'if',
  'in',
  'select',
  'then',
  'time',
  'until',
  'while',
]);

// Control characters (tab and newline aside) and blanks the shell does not treat as blanks:
// the tokenizer would split on some of them where /bin/sh does not.
const UNUSUAL_CHARACTER =
  /[\0-\x08\x0b-\x1f\x7f\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/u;

// Redirections that touch no file: `2>&1`, `>&2`, and sending output to /dev/null.
const HARMLESS_REDIRECTION =
  /^(?:[<>]&\d+|>>?[ \t]*\/dev\/null|<[ \t]*\/dev\/null)(?=[ \t\n;&|]|$)/;

/**
 * Splits a command line into its simple commands (on `&&`, `||`, `;`, `|`,
 * `&` and newlines), or names the first construct that hides what would
 * run: substitutions, subshells, redirections to files, heredocs, keywords,
 * leading assignments. A quote-aware scan finds those and the separators;
 * shell-quote then reads each simple command into words. The scan errs on
 * the side of refusing wherever the tokenizer and /bin/sh could disagree.
 */
export function splitSimpleCommands(line: string): SplitResult {
  const unusual = UNUSUAL_CHARACTER.exec(line);
  if (unusual) {
    return refuse(`a control or unusual whitespace character (${codePoint(unusual[0])})`);
  }
  // The shell joins continued lines before it reads anything else, inside double quotes
  // and after `$` too, where a scan could see `$\` and miss the `(` that follows; and a
  // comment ends at the newline the continuation would hide. Refusing them is simpler
  // than agreeing with /bin/sh on every case.
  if (line.includes('\\\n')) return refuse('a line continuation (backslash-newline)');
  const scanned = scanSegments(line);
  if (!scanned.ok) return scanned;
  const commands: SimpleCommand[] = [];
  for (const segment of scanned.segments) {
    const command = readWords(segment);
    if (!command.ok) return command;
    if (command.words.length > 0) commands.push({ words: command.words });
  }
  return { ok: true, commands };
}

type ScanResult = { ok: true; segments: readonly string[] } | { ok: false; construct: string };

/**
 * Walks the line once, tracking quotes, and cuts it into simple-command
 * texts ready for the tokenizer (line continuations removed, harmless
 * redirections dropped, mid-word `#` escaped, comments skipped).
 */
function scanSegments(line: string): ScanResult {
  const segments: string[] = [];
  let current = '';
  // Where the word being read starts in `current`, or -1 between words.
  let wordStart = -1;
  const startWord = (): void => {
    if (wordStart < 0) wordStart = current.length;
  };
  const endWord = (): void => {
    wordStart = -1;
  };
  const endSegment = (): void => {
    segments.push(current);
    current = '';
    endWord();
  };

  let i = 0;
  while (i < line.length) {
    const c = line.charAt(i);
    const next = line.charAt(i + 1);
    if (c === '\\') {
      // Backslash-newline joins lines; any other escaped character is literal.
      if (next === '\n') {
        i += 2;
        continue;
      }
      startWord();
      current += next === '' ? '\\\\' : c + next;
      i += 2;
      continue;
    }
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) return refuse('an unterminated quote');
      startWord();
      current += line.slice(i, close + 1);
      i = close + 1;
      continue;
    }
    if (c === '"') {
      const quoted = scanDoubleQuoted(line, i);
      if (!quoted.ok) return quoted;
      startWord();
      current += quoted.text;
      i = quoted.end;
      continue;
    }
    if (c === '`') return refuse('command substitution `…`');
    if (c === '$') {
      const dollar = scanDollar(line, i, false);
      if (!dollar.ok) return dollar;
      startWord();
      current += line.slice(i, dollar.end);
      i = dollar.end;
      continue;
    }
    if (c === '#') {
      if (wordStart < 0) {
        // A comment runs to the end of the line; the newline still separates.
        const newline = line.indexOf('\n', i);
        i = newline < 0 ? line.length : newline;
        continue;
      }
      // Inside a word `#` is literal to the shell but starts a comment for the tokenizer.
      current += '\\#';
      i += 1;
      continue;
    }
    if (c === ' ' || c === '\t') {
      current += ' ';
      endWord();
      i += 1;
      continue;
    }
    if (c === '\n' || c === ';' || c === '&' || c === '|') {
      endSegment();
      i += 1;
      continue;
    }
    if (c === '(' || c === ')') return refuse('a subshell or parentheses');
    if (c === '<' || c === '>') {
      const harmless = HARMLESS_REDIRECTION.exec(line.slice(i));
      if (!harmless) return refuse(describeRedirection(c, next, line.charAt(i + 2)));
      // A run of digits right before the operator is its file descriptor, not a word.
      if (wordStart >= 0 && /^\d+$/.test(current.slice(wordStart))) {
        current = current.slice(0, wordStart);
      }
      current += ' ';
      endWord();
      i += harmless[0].length;
      continue;
    }
    startWord();
    current += c;
    i += 1;
  }
  endSegment();
  return { ok: true, segments };
}

type QuotedScan = { ok: true; text: string; end: number } | { ok: false; construct: string };

/** Reads `"…"` from `start`; refuses substitutions inside, which run commands even when quoted. */
function scanDoubleQuoted(line: string, start: number): QuotedScan {
  let text = '"';
  let i = start + 1;
  while (i < line.length) {
    const c = line.charAt(i);
    if (c === '"') return { ok: true, text: `${text}"`, end: i + 1 };
    if (c === '\\') {
      const next = line.charAt(i + 1);
      if (next !== '\n') text += c + next;
      i += 2;
      continue;
    }
    if (c === '`') return refuse('command substitution `…`');
    if (c === '$') {
      const dollar = scanDollar(line, i, true);
      if (!dollar.ok) return dollar;
      text += line.slice(i, dollar.end);
      i = dollar.end;
      continue;
    }
    text += c;
    i += 1;
  }
  return refuse('an unterminated quote');
}

type DollarScan = { ok: true; end: number } | { ok: false; construct: string };

/**
 * Classifies a `$` at `at`. Plain parameter expansions (`$NAME`, `${NAME}`,
 * `$?`) are kept: they can only add argument words, never commands. Any
 * other expansion is refused.
 */
function scanDollar(line: string, at: number, inDoubleQuotes: boolean): DollarScan {
  const rest = line.slice(at);
  if (rest.startsWith('$((')) return refuse('arithmetic expansion $((…))');
  if (rest.startsWith('$(')) return refuse('command substitution $(…)');
  // bash's old arithmetic form; arithmetic can evaluate a variable's text as code.
  if (rest.startsWith('$[')) return refuse('arithmetic expansion $[…]');
  if (rest.startsWith('${')) {
    const braced = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}/.exec(rest);
    return braced ? { ok: true, end: at + braced[0].length } : refuse('parameter expansion ${…}');
  }
  const name = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(rest);
  if (name) return { ok: true, end: at + name[0].length };
  // `$'…'` and `$"…"` are bash quoting that dash reads differently.
  if (!inDoubleQuotes && (rest.startsWith("$'") || rest.startsWith('$"'))) {
    return refuse(`${rest.slice(0, 2)}…${rest.charAt(1)} quoting`);
  }
  return { ok: true, end: at + 1 };
}

function describeRedirection(c: string, next: string, third: string): string {
  if (next === '(') return `process substitution ${c}(…)`;
  if (c === '<' && next === '<') return third === '<' ? 'a here-string (<<<)' : 'a heredoc (<<)';
  return `a redirection (${c === next ? c + next : c})`;
}

type WordsResult = { ok: true; words: readonly string[] } | { ok: false; construct: string };

function readWords(segment: string): WordsResult {
  // Expansions stay as written (`$HOME`), so patterns see the text the model sent.
  const entries = splitWords(segment, (name) => `$${name}`);
  const words: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') words.push(entry);
    else if ('op' in entry && entry.op === 'glob') words.push(entry.pattern);
    // The scan removed every operator and comment; one here means the two readings disagree.
    else return refuse('shell syntax that could not be read');
  }
  const name = words[0];
  if (name === undefined) return { ok: true, words };
  if (RESERVED_WORDS.has(name)) return refuse(`the shell keyword "${name}"`);
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(name)) {
    return refuse(`a variable assignment before the command (${clip(name.split('=')[0] ?? '')}=…)`);
  }
  if (name.includes('$')) return refuse('a variable in the command name');
  if (/[*?{}[\]]/.test(name) && name !== '[')
    return refuse('a wildcard or brace in the command name');
  return { ok: true, words };
}

function refuse(construct: string): { ok: false; construct: string } {
  return { ok: false, construct };
}

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
