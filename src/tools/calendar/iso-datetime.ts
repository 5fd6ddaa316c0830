export type InstantCheck = { ok: true; date: Date } | { ok: false; reason: string };

// RFC 3339 / ISO 8601 extended date-time that names its offset; `+0200` is accepted too.
const PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

const daysIn = (year: number, month: number): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Parses a date-time that says which instant it means: a local time without
 * an offset is refused, since the agent cannot know the user's zone. Whole
 * seconds only (iCalendar has no fractions); a fraction is dropped.
 */
export function parseInstant(field: string, value: unknown): InstantCheck {
  if (typeof value !== 'string') return { ok: false, reason: `"${field}" must be a string` };
  const m = PATTERN.exec(value.trim());
  const refuse = (why: string): InstantCheck => ({
    ok: false,
    reason: `"${field}" ${why}; use ISO 8601 with an offset, e.g. 2026-12-01T09:00:00Z or 2026-12-01T10:00:00+01:00`,
  });
  if (!m) return refuse('is not a date-time with a time zone offset');
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(m[i] ?? 0),
  ) as [number, number, number, number, number, number];
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (year < 1900) return refuse('is before the year 1900');
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) {
    return refuse('is not a real calendar date');
  }
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return refuse('is not a real time of day');
  }
  const sign = m[8] === '-' ? -1 : 1;
  const offsetMs = m[7] ? 0 : sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMs;
  return { ok: true, date: new Date(utc) };
}

/** `2026-12-01T09:00:00Z`: the canonical form stored and hashed. */
export const toIsoSeconds = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`;
