import { describe, expect, it } from 'vitest';
import { normalizeCalendarArgs } from './calendar-args.js';
import { parseInstant } from './iso-datetime.js';

describe('parseInstant', () => {
  it.each([
    ['2026-12-01T09:00:00Z', '2026-12-01T09:00:00.000Z'],
    ['2026-12-01T09:00Z', '2026-12-01T09:00:00.000Z'],
    ['2026-12-01t09:00:00z', '2026-12-01T09:00:00.000Z'],
    ['2026-12-01T10:00:00+01:00', '2026-12-01T09:00:00.000Z'],
    ['2026-12-01T04:30:00-0430', '2026-12-01T09:00:00.000Z'],
    ['2026-12-01T00:30:00+05:30', '2026-11-30T19:00:00.000Z'],
    ['2028-02-29T12:00:00Z', '2028-02-29T12:00:00.000Z'],
    ['2026-12-01T09:00:00.987654Z', '2026-12-01T09:00:00.000Z'],
  ])('%s → %s', (input, expected) => {
    const result = parseInstant('start', input);
    expect(result.ok && result.date.toISOString()).toBe(expected);
  });

  it.each([
    ['no offset', '2026-12-01T09:00:00', /time zone offset/],
    ['a date only', '2026-12-01', /time zone offset/],
    ['prose', 'tomorrow at 9', /time zone offset/],
    ['30 February', '2026-02-30T09:00:00Z', /real calendar date/],
    ['29 February of a common year', '2027-02-29T09:00:00Z', /real calendar date/],
    ['month 13', '2026-13-01T09:00:00Z', /real calendar date/],
    ['hour 24', '2026-12-01T24:00:00Z', /real time of day/],
    ['a leap second', '2026-12-31T23:59:60Z', /real time of day/],
    ['a year before 1900', '1899-12-31T23:00:00Z', /before the year 1900/],
    ['a number', 1_700_000_000, /must be a string/],
  ])('refuses %s', (_name, input, reason) => {
    const result = parseInstant('start', input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

describe('normalizeCalendarArgs', () => {
  const base = {
    title: 'Standup',
    start: '2026-12-01T10:00:00+01:00',
    end: '2026-12-01T10:15:00+01:00',
  };

  it('normalises times to UTC, trims text and deduplicates attendees', () => {
    expect(
      normalizeCalendarArgs({
        ...base,
        title: '  Standup  ',
        description: 'Line 1\r\nLine 2  ',
        location: ' Room 1 ',
        attendees: ['Alice@Example.com', 'alice@example.com', 'bob@example.com'],
      }),
    ).toEqual({
      ok: true,
      args: {
        title: 'Standup',
        start: '2026-12-01T09:00:00Z',
        end: '2026-12-01T09:15:00Z',
        description: 'Line 1\nLine 2',
        location: 'Room 1',
        attendees: ['alice@example.com', 'bob@example.com'],
      },
      recipients: ['alice@example.com', 'bob@example.com'],
    });
  });

  it('has no recipients without attendees', () => {
    expect(normalizeCalendarArgs(base)).toMatchObject({ ok: true, recipients: [] });
  });

  it.each([
    ['not an object', [], /must be an object/],
    ['an unknown argument', { ...base, rrule: 'FREQ=DAILY' }, /unknown argument "rrule"/],
    ['a missing title', { start: base.start, end: base.end }, /"title" is required/],
    ['a blank title', { ...base, title: '   ' }, /"title" is required/],
    ['a title with a newline', { ...base, title: 'A\nB' }, /"title" must be one line/],
    ['a location with CR', { ...base, location: 'A\rB' }, /"location" must be one line/],
    ['a description with NUL', { ...base, description: 'a\u0000' }, /control characters/],
    ['a long title', { ...base, title: 'x'.repeat(256) }, /longer than 255/],
    ['end before start', { ...base, end: '2026-12-01T08:00:00Z' }, /"end" must be after "start"/],
    ['end equal to start', { ...base, end: '2026-12-01T09:00:00Z' }, /"end" must be after "start"/],
    ['a bad start', { ...base, start: '2026-12-01 09:00' }, /"start" is not a date-time/],
    ['attendees as a string', { ...base, attendees: 'a@example.com' }, /list of email addresses/],
    [
      'a bad attendee',
      { ...base, attendees: ['a@example.com', 'b@'] },
      /"attendees": "b@" is not a valid/,
    ],
    ['an injected attendee', { ...base, attendees: ['a@example.com\r\nX:y'] }, /line break/],
    [
      '101 attendees',
      { ...base, attendees: Array.from({ length: 101 }, (_, i) => `p${i}@x.com`) },
      /too many attendees/,
    ],
  ])('refuses %s', (_name, args, reason) => {
    const result = normalizeCalendarArgs(args);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});
