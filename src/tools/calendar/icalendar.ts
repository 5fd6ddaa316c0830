/**
 * RFC 5545 text building: escaping, folding and one VEVENT. Pure functions;
 * lines are joined with CRLF as the RFC requires.
 */
export const CRLF = '\r\n';
const MAX_OCTETS = 75;

export const PRODID = '-//Cadre//calendar_event_create//EN';

export interface VEventFields {
  uid: string;
  /** When the object was created (DTSTAMP). */
  stamp: Date;
  start: Date;
  end: Date;
  title: string;
  description?: string;
  location?: string;
  attendees: readonly string[];
}

/** TEXT value escaping (§3.3.11): backslash first, then `;`, `,` and newlines. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Folds a content line so no physical line exceeds 75 octets (§3.1);
 * continuation lines start with one space. Never splits a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > MAX_OCTETS) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join(CRLF);
}

/** `20261201T090000Z` */
export function formatUtc(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** A parameter value, quoted when it holds `;`, `:` or `,` (DQUOTE cannot appear: addresses refuse it). */
const paramValue = (value: string): string => (/[;:,]/.test(value) ? `"${value}"` : value);

/** `mailto:` URI of a validated address; `%`, `?` and `#` would change its meaning, so they are encoded. */
const mailto = (address: string): string =>
  `mailto:${address.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;

/** The VEVENT's content lines, unfolded. */
export function veventLines(event: VEventFields): string[] {
  const lines = [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${formatUtc(event.stamp)}`,
    `DTSTART:${formatUtc(event.start)}`,
    `DTEND:${formatUtc(event.end)}`,
    `SUMMARY:${escapeText(event.title)}`,
  ];
  if (event.description !== undefined) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
  if (event.location !== undefined) lines.push(`LOCATION:${escapeText(event.location)}`);
  for (const attendee of event.attendees) {
    lines.push(`ATTENDEE;CN=${paramValue(attendee)}:${mailto(attendee)}`);
  }
  lines.push('END:VEVENT');
  return lines;
}

/** A complete calendar object holding the given components' lines, folded, CRLF-terminated. */
export function calendarText(componentLines: readonly string[]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODID}`,
    'CALSCALE:GREGORIAN',
    ...componentLines,
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/**
 * Adds a VEVENT to an existing iCalendar text, just before its final
 * `END:VCALENDAR`; line ends become CRLF. Undefined when the text is not a
 * calendar (the caller refuses to touch such a file).
 */
export function insertEvent(
  existing: string,
  componentLines: readonly string[],
): string | undefined {
  const text = existing.replace(/^\uFEFF/, '').replace(/\r\n|\r|\n/g, CRLF);
  if (!/^BEGIN:VCALENDAR\r\n/i.test(text)) return undefined;
  const body = text.replace(/(?:\r\n|[ \t])+$/, '');
  if (!/(?:^|\r\n)END:VCALENDAR$/i.test(body)) return undefined;
  const head = body.slice(0, body.length - 'END:VCALENDAR'.length);
  const folded = componentLines.map(foldLine).join(CRLF) + CRLF;
  return head + folded + 'END:VCALENDAR' + CRLF;
}

/** True when the calendar text already holds a component with this UID. */
export function hasUid(text: string, uid: string): boolean {
  const unfolded = text.replace(/\r?\n[ \t]/g, '');
  return unfolded.split(/\r?\n/).some((line) => line.trim() === `UID:${uid}`);
}
