import { describe, expect, it } from 'vitest';
import { CappedOutput, clipLine, formatCount, truncationNote } from './output-cap.js';

describe('CappedOutput', () => {
  it('returns everything untouched when within limits', () => {
    const out = new CappedOutput({ maxItems: 3, maxChars: 100 }, 'lines');
    ['a', 'b', 'c'].forEach((line) => out.add(line));
    expect(out.truncated).toBe(false);
    expect(out.render('hint')).toBe('a\nb\nc');
  });

  it('caps by item count and says how many were shown of how many', () => {
    const out = new CappedOutput({ maxItems: 200, maxChars: 1_000_000 }, 'lines');
    for (let i = 0; i < 1532; i += 1) out.add(`line ${i}`);
    const text = out.render('narrow the query');
    expect(text.split('\n')).toHaveLength(201);
    expect(text.endsWith('\n[truncated: showing 200 of 1,532 lines; narrow the query]')).toBe(true);
  });

  it('caps by characters and keeps a contiguous prefix', () => {
    const out = new CappedOutput({ maxItems: 100, maxChars: 10 }, 'entries');
    ['1234', '1234', 'x', 'y'].forEach((line) => out.add(line));
    // "1234\n1234\n" is exactly 10; later short lines must not slip in after a drop.
    expect(out.render('h')).toBe('1234\n1234\n[truncated: showing 2 of 4 entries; h]');
  });

  it('renders only the note when nothing fits', () => {
    const out = new CappedOutput({ maxItems: 10, maxChars: 3 }, 'lines');
    out.add('too long');
    expect(out.render('h')).toBe('[truncated: showing 0 of 1 lines; h]');
  });
});

describe('helpers', () => {
  it('formats counts with thousands separators', () => {
    expect(formatCount(1532)).toBe('1,532');
    expect(truncationNote(1, 2, 'files', 'x')).toBe('[truncated: showing 1 of 2 files; x]');
  });

  it('formats counts as toLocaleString does, without loading ICU', () => {
    const samples = [0, 7, 999, 1000, 1532, 65536, 1234567, 12.5, 1234.5, 0.1234, -1532, -0.0001];
    for (const n of samples) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });

  it('clips long lines and says how much was cut', () => {
    expect(clipLine('abcdef', 10)).toBe('abcdef');
    expect(clipLine('abcdef', 2)).toBe('ab… [4 more characters]');
  });
});
