import type { DAVCalendar } from 'tsdav';
import { AuthError, CadreError, CancelledError, ToolExecutionError } from '../../errors/index.js';
import { optionalImport } from '../../util/optional-import.js';
import type { CalDavSettings } from './calendar-config.js';

export interface CalDavResult {
  created: boolean;
  /** The event's URL on the server. */
  url: string;
}

/** An optional peer: `npm install cadre` leaves it out. */
const TSDAV = { needs: 'Calendar events on a CalDAV server need', packages: ['tsdav'] };

const nameOf = (calendar: DAVCalendar): string | undefined =>
  typeof calendar.displayName === 'string' ? calendar.displayName : undefined;

const holdsEvents = (calendar: DAVCalendar): boolean =>
  (calendar.components ?? []).length === 0 || (calendar.components ?? []).includes('VEVENT');

/**
 * Creates the event on a CalDAV server with tsdav: discovers the account,
 * picks the named calendar (or the first one holding events) and PUTs the
 * object with `If-None-Match: *`, so an existing UID is never overwritten.
 */
export async function createOnCalDav(
  settings: CalDavSettings,
  uid: string,
  ics: string,
  signal: AbortSignal,
): Promise<CalDavResult> {
  try {
    // tsdav (and its XML parser) load only when a CalDAV server is configured.
    const { createDAVClient } = await optionalImport(() => import('tsdav'), TSDAV);
    const client = await createDAVClient({
      serverUrl: settings.url,
      credentials: { username: settings.username, password: settings.password },
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
      fetchOptions: { signal },
    });
    const calendars = (await client.fetchCalendars()).filter(holdsEvents);
    const wanted = settings.calendarName?.toLowerCase();
    const calendar =
      wanted === undefined
        ? calendars[0]
        : calendars.find((c) => nameOf(c)?.toLowerCase() === wanted);
    if (calendar === undefined) {
      throw new ToolExecutionError(
        wanted === undefined
          ? 'The CalDAV account has no calendar for events.'
          : 'No CalDAV calendar has the name in CADRE_CALDAV_CALENDAR.',
      );
    }
    const filename = `${encodeURIComponent(uid)}.ics`;
    const response = await client.createCalendarObject({ calendar, iCalString: ics, filename });
    const url = new URL(filename, calendar.url.endsWith('/') ? calendar.url : `${calendar.url}/`)
      .href;
    if (response.ok) return { created: true, url };
    if (response.status === 412) return { created: false, url };
    throw new ToolExecutionError(`The CalDAV server refused the event (HTTP ${response.status}).`, {
      details: { status: response.status },
    });
  } catch (error) {
    throw toCalDavError(error, signal);
  }
}

function toCalDavError(error: unknown, signal: AbortSignal): CadreError {
  if (error instanceof CadreError) return error;
  if (signal.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return new CancelledError('The calendar call was cancelled.');
  }
  const message = error instanceof Error ? error.message : '';
  if (/invalid credentials|401/i.test(message)) {
    return new AuthError(
      'The CalDAV server refused the credentials (CADRE_CALDAV_USERNAME / CADRE_CALDAV_PASSWORD).',
    );
  }
  return new ToolExecutionError('Could not create the event on the CalDAV server.', {
    details: { reason: message.slice(0, 200) },
  });
}
