/**
 * Text a person reads before approving, shown as it is: nothing in it is
 * interpreted by a terminal or a page. Characters that act instead of
 * showing (controls, escape sequences, bidi overrides, zero-width and other
 * invisible characters, line separators, spaces other than U+0020) become
 * escapes: `\r`, `\n`, `\t`, `\xHH` (up to U+00FF), `\uHHHH`, `\u{HHHHH}`.
 * A command `touch X #\r\x1b[2KAllow Run: ls` shows as
 * `touch X #\r\x1b[2KAllow Run: ls`, never as `Allow Run: ls`.
 */

// What hides or moves text: controls (C0, DEL, C1), format characters (bidi
// overrides and isolates, marks, zero-width, word joiner, BOM, soft hyphen,
// tags), line and paragraph separators, every space but U+0020 (it would pass
// for one), lone surrogates, private and unassigned code points, and the
// invisible letters and marks (variation selectors, fillers, blank braille).
const HIDDEN_CLASS =
  '\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}\\p{Co}\\p{Cn}\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000' +
  '\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u2800\\u3164\\ufe00-\\ufe0f\\uffa0\\u{e0100}-\\u{e01ef}';
/**
 * The patterns, built on first use: parsing their Unicode classes takes about
 * 2 ms, which every import of the runtime would pay before any text is shown.
 */
const patterns = once(() => ({
  hidden: new RegExp(`[${HIDDEN_CLASS}]`, 'gu'),
  // A backslash is doubled only where it would otherwise read as the start of an escape.
  hiddenOrAmbiguous: new RegExp(`[${HIDDEN_CLASS}]|\\\\(?=[\\\\rntxu]|[${HIDDEN_CLASS}])`, 'gu'),
  hiddenKeepingNewlines: new RegExp(`(?!\\n)[${HIDDEN_CLASS}]`, 'gu'),
  hiddenOrAmbiguousKeepingNewlines: new RegExp(
    `(?!\\n)[${HIDDEN_CLASS}]|\\\\(?=[\\\\rntxu]|(?!\\n)[${HIDDEN_CLASS}])`,
    'gu',
  ),
}));

function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

export interface VisibleTextOptions {
  /**
   * `escape` (the default): one line, newlines show as `\n` — every "what will
   * run" summary. `keep`: newlines stay line breaks, for a display that is
   * clearly a block of content (a file body shown as such), never a summary.
   */
  newlines?: 'escape' | 'keep';
}

/**
 * Raw text (a tool's arguments, a preview built from them) as display text.
 * Injective: two different texts never show the same, since a backslash that
 * could be read as an escape shows doubled (`printf 'a\nb'` shows as
 * `printf 'a\\nb'`; `grep 'a\|b'` is left alone). Apply it once, to raw text.
 */
export function visibleText(text: string, options: VisibleTextOptions = {}): string {
  const { hiddenOrAmbiguous, hiddenOrAmbiguousKeepingNewlines } = patterns();
  const pattern =
    options.newlines === 'keep' ? hiddenOrAmbiguousKeepingNewlines : hiddenOrAmbiguous;
  return text.replace(pattern, escapeOne);
}

/**
 * The guard a display applies to text that should already be visible (a
 * preview made by `visibleText`, a reason, an agent's path): escapes what
 * would still act, leaves backslashes alone, so text already visible passes
 * unchanged. Not injective: use `visibleText` on raw arguments.
 */
export function escapeInvisible(text: string, options: VisibleTextOptions = {}): string {
  const { hidden, hiddenKeepingNewlines } = patterns();
  const pattern = options.newlines === 'keep' ? hiddenKeepingNewlines : hidden;
  return text.replace(pattern, escapeOne);
}

function escapeOne(char: string): string {
  switch (char) {
    case '\\':
      return '\\\\';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    default: {
      const code = char.codePointAt(0) ?? 0;
      const hex = code.toString(16);
      if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
      return code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
    }
  }
}
