import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeInvisible, visibleText } from './visible-text.js';

/** Reads display text back: the escapes `visibleText` writes; any other backslash is itself. */
function readBack(shown: string): string {
  return shown.replace(
    /\\(?:\\|r|n|t|x([0-9a-f]{2})|u([0-9a-f]{4})|u\{([0-9a-f]+)\})/g,
    (escape, x?: string, u?: string, astral?: string) => {
      const hex = x ?? u ?? astral;
      if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
      return { '\\\\': '\\', '\\r': '\r', '\\n': '\n', '\\t': '\t' }[escape] ?? escape;
    },
  );
}

// Every kind of character that acts instead of showing, checked without the module's own table.
const ACTING =
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u061c\ufeff\u2028\u2029\u00a0\u00ad\ufe0f\u{e0001}\u{e0041}]|\p{Cc}|\p{Cf}|\p{Zl}|\p{Zp}|\p{Cs}/u;

const TRICKY = [
  '\\',
  'r',
  'n',
  't',
  'x',
  'u',
  '{',
  '1',
  'b',
  '[',
  '\r',
  '\n',
  '\t',
  '\x1b',
  '\x00',
  '\x7f',
  '\x9b',
  '\u202e',
  '\u2066',
  '\u200b',
  '\u200d',
  '\ufeff',
  '\u2028',
  '\u00a0',
  '\ud800',
  '\udfff',
  '\u{e0041}',
  '😀',
  'é',
];
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...TRICKY),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

describe('visibleText', () => {
  it('shows the carriage-return / erase-line disguise as escapes', () => {
    expect(visibleText('touch X #\r\x1b[2KAllow Run: ls -la')).toBe(
      'touch X #\\r\\x1b[2KAllow Run: ls -la',
    );
  });

  it('escapes every control: C0, DEL, C1 (a lone CSI), OSC', () => {
    expect(visibleText('a\tb\nc\x00d\x7fe\x9b31mf\x1b]0;title\x07')).toBe(
      'a\\tb\\nc\\x00d\\x7fe\\x9b31mf\\x1b]0;title\\x07',
    );
  });

  it('escapes bidi overrides and isolates, zero-width and invisible format characters', () => {
    expect(visibleText('notes_\u202etxt.sh')).toBe('notes_\\u202etxt.sh');
    expect(visibleText('\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c')).toBe(
      '\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c',
    );
    expect(visibleText('rm\u200b\u200c\u200d\u2060\ufeff\u00ad-rf')).toBe(
      'rm\\u200b\\u200c\\u200d\\u2060\\ufeff\\xad-rf',
    );
    expect(visibleText('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c');
  });

  it('escapes spaces that pass for a space, tags and lone surrogates; keeps emoji and accents', () => {
    expect(visibleText('rm -rf /\u00a0tmp\u3000x')).toBe('rm -rf /\\xa0tmp\\u3000x');
    expect(visibleText('ok\u{e0041}\u{e0042}')).toBe('ok\\u{e0041}\\u{e0042}');
    expect(visibleText('a\ud800b')).toBe('a\\ud800b');
    expect(visibleText('café 😀 日本')).toBe('café 😀 日本');
  });

  it('doubles a backslash only where it could read as an escape', () => {
    expect(visibleText("grep 'a\\|b' C:\\Users")).toBe("grep 'a\\|b' C:\\Users");
    expect(visibleText("printf 'a\\nb'")).toBe("printf 'a\\\\nb'");
    expect(visibleText('\\x1b')).toBe('\\\\x1b');
    expect(visibleText('\\\r')).toBe('\\\\\\r');
    // The typed-out disguise and the real one differ on screen.
    expect(visibleText('a\\rb')).not.toBe(visibleText('a\rb'));
  });

  it('keeps newlines as line breaks only when asked (a block of content), escaping the rest', () => {
    expect(visibleText('one\ntwo\r\n\x1b[31m', { newlines: 'keep' })).toBe(
      'one\ntwo\\r\n\\x1b[31m',
    );
    expect(visibleText('one\ntwo')).toBe('one\\ntwo');
  });

  it('property: the output never holds a character that acts instead of showing', () => {
    fc.assert(
      fc.property(text, (raw) => {
        expect(visibleText(raw)).not.toMatch(ACTING);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: in a block, only the newline itself is kept', () => {
    fc.assert(
      fc.property(text, (raw) => {
        const shown = visibleText(raw, { newlines: 'keep' });
        for (const line of shown.split('\n')) expect(line).not.toMatch(ACTING);
        expect(readBack(shown)).toBe(raw);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: injective — the raw text reads back from what is shown, so two texts never show the same', () => {
    fc.assert(
      fc.property(text, (raw) => {
        expect(readBack(visibleText(raw))).toBe(raw);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(text, text, (a, b) => {
        fc.pre(a !== b);
        expect(visibleText(a)).not.toBe(visibleText(b));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('escapeInvisible', () => {
  it('leaves text already made visible unchanged (a display may guard it again)', () => {
    fc.assert(
      fc.property(text, (raw) => {
        const shown = visibleText(raw);
        expect(escapeInvisible(shown)).toBe(shown);
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes what would act, and leaves backslashes as they are', () => {
    expect(escapeInvisible('Run: a\\nb\r\x1b[2K\u202e')).toBe('Run: a\\nb\\r\\x1b[2K\\u202e');
    fc.assert(
      fc.property(text, (raw) => {
        expect(escapeInvisible(raw)).not.toMatch(ACTING);
      }),
      { numRuns: 1000 },
    );
  });
});
