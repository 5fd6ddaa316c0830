import { checkEmailAddress, quoted } from '../mail/email-address.js';
import { parseInstant, toIsoSeconds } from './iso-datetime.js';

/** The arguments as a model sends them. */
export interface CalendarArgs {
  title: string;
  start: string;
  end: string;
  description?: string;
  location?: string;
  attendees?: string[];
}

/** Times in UTC (`2026-12-01T09:00:00Z`), text trimmed, attendees lower-cased and unique. A type alias so it fits the policy's `Record<string, unknown>`. */
export type NormalizedCalendarArgs = {
  title: string;
  start: string;
  end: string;
  description?: string;
  location?: string;
  attendees: string[];
};

export type CalendarArgsResult =
  { ok: true; args: NormalizedCalendarArgs; recipients: string[] } | { ok: false; reason: string };

export const CALENDAR_LIMITS = {
  maxTitleChars: 255,
  maxLocationChars: 255,
  maxDescriptionChars: 8_000,
  maxAttendees: 100,
} as const;

const KNOWN = new Set(['title', 'start', 'end', 'description', 'location', 'attendees']);
const ONE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// Descriptions may span lines; other control characters have no business in a calendar.
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const fail = (reason: string): CalendarArgsResult => ({ ok: false, reason });

/** Validates and normalises calendar_event_create arguments, before policy and approval. */
export function normalizeCalendarArgs(args: unknown): CalendarArgsResult {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return fail('the arguments must be an object');
  }
  const input = args as Record<string, unknown>;
  const unknown = Object.keys(input).find((key) => !KNOWN.has(key));
  if (unknown !== undefined) return fail(`unknown argument ${quoted(unknown)}`);

  const title = text('title', input.title, CALENDAR_LIMITS.maxTitleChars, false);
  if (typeof title !== 'object') return fail(title);
  if (title.value === undefined) return fail('"title" is required and must not be blank');
  const location = text('location', input.location, CALENDAR_LIMITS.maxLocationChars, false);
  if (typeof location !== 'object') return fail(location);
  const description = text(
    'description',
    input.description,
    CALENDAR_LIMITS.maxDescriptionChars,
    true,
  );
  if (typeof description !== 'object') return fail(description);

  const start = parseInstant('start', input.start);
  if (!start.ok) return fail(start.reason);
  const end = parseInstant('end', input.end);
  if (!end.ok) return fail(end.reason);
  if (end.date.getTime() <= start.date.getTime()) return fail('"end" must be after "start"');

  const attendees = attendeeList(input.attendees);
  if (typeof attendees === 'string') return fail(attendees);

  const normalized: NormalizedCalendarArgs = {
    title: title.value,
    start: toIsoSeconds(start.date),
    end: toIsoSeconds(end.date),
    attendees,
  };
  if (description.value !== undefined) normalized.description = description.value;
  if (location.value !== undefined) normalized.location = location.value;
  return { ok: true, args: normalized, recipients: attendees };
}

/** Optional text; `{value}` when fine (undefined when absent or blank), a string when refused. */
function text(
  field: string,
  value: unknown,
  max: number,
  multiLine: boolean,
): { value: string | undefined } | string {
  if (value === undefined) return { value: undefined };
  if (typeof value !== 'string') return `"${field}" must be a string`;
  if ((multiLine ? MULTI_LINE_FORBIDDEN : ONE_LINE_FORBIDDEN).test(value)) {
    return multiLine
      ? `"${field}" contains control characters`
      : `"${field}" must be one line: line breaks and control characters are not allowed`;
  }
  const trimmed = (multiLine ? value.replace(/\r\n?/g, '\n') : value).trim();
  if (trimmed.length > max) return `"${field}" is longer than ${max} characters`;
  return { value: trimmed === '' ? undefined : trimmed };
}

function attendeeList(value: unknown): string[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    return '"attendees" must be a list of email addresses';
  }
  if (value.length > CALENDAR_LIMITS.maxAttendees) {
    return `too many attendees; at most ${CALENDAR_LIMITS.maxAttendees}`;
  }
  const out = new Set<string>();
  for (const item of value) {
    const check = checkEmailAddress(item);
    if (!check.ok) return `"attendees": ${check.reason}`;
    out.add(check.address);
  }
  return [...out];
}
