import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, formatUtc, hasUid, insertEvent } from './icalendar.js';

describe('escapeText', () => {
  it.each([
    ['plain', 'plain'],
    ['a;b', 'a\\;b'],
    ['a,b', 'a\\,b'],
    ['back\\slash', 'back\\\\slash'],
    ['line1\nline2', 'line1\\nline2'],
    ['crlf\r\nend', 'crlf\\nend'],
    ['\\n is not a newline', '\\\\n is not a newline'],
    ['all: \\;,\n', 'all: \\\\\\;\\,\\n'],
  ])('%j → %j', (input, expected) => {
    expect(escapeText(input)).toBe(expected);
  });
});

describe('foldLine', () => {
  const octets = (s: string): number => Buffer.byteLength(s, 'utf8');

  it('leaves a line of 75 octets alone', () => {
    const line = `SUMMARY:${'x'.repeat(67)}`;
    expect(foldLine(line)).toBe(line);
  });

  it.each([
    ['ASCII', `DESCRIPTION:${'abcdefghij'.repeat(30)}`],
    ['two-byte', `SUMMARY:${'é'.repeat(100)}`],
    ['three-byte', `SUMMARY:${'会議'.repeat(60)}`],
    ['four-byte', `SUMMARY:${'😀'.repeat(50)}`],
  ])('folds %s text into ≤75-octet lines that unfold back', (_name, line) => {
    const folded = foldLine(line);
    const physical = folded.split('\r\n');
    expect(physical.length).toBeGreaterThan(1);
    for (const [i, part] of physical.entries()) {
      expect(octets(part)).toBeLessThanOrEqual(75);
      if (i > 0) expect(part.startsWith(' ')).toBe(true);
      expect(part).not.toContain('\uFFFD');
    }
    expect(folded.replace(/\r\n /g, '')).toBe(line);
  });
});

describe('calendar text helpers', () => {
  it('formats UTC date-times without separators or fractions', () => {
    expect(formatUtc(new Date('2026-12-01T09:05:07.123Z'))).toBe('20261201T090507Z');
  });

  it('inserts an event before the final END:VCALENDAR, normalising line ends to CRLF', () => {
    const existing = 'BEGIN:VCALENDAR\nVERSION:2.0\nX-KEEP:yes\nEND:VCALENDAR\n\n';
    expect(insertEvent(existing, ['BEGIN:VEVENT', 'UID:1', 'END:VEVENT'])).toBe(
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-KEEP:yes\r\nBEGIN:VEVENT\r\nUID:1\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    );
  });

  it.each([['hello world'], ['BEGIN:VCALENDAR\r\nVERSION:2.0\r\n'], ['END:VCALENDAR\r\n']])(
    'refuses to insert into a non-calendar %j',
    (text) => {
      expect(insertEvent(text, ['BEGIN:VEVENT', 'END:VEVENT'])).toBeUndefined();
    },
  );

  it('finds a UID even when its line was folded', () => {
    const text = `BEGIN:VEVENT\r\n${foldLine(`UID:${'u'.repeat(100)}`)}\r\nEND:VEVENT\r\n`;
    expect(hasUid(text, 'u'.repeat(100))).toBe(true);
    expect(hasUid(text, 'u'.repeat(99))).toBe(false);
  });
});
