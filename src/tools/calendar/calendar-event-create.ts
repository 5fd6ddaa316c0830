import { createHash, randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../../errors/index.js';
import { throwIfAborted } from '../builtin/abort.js';
import { toToolError } from '../builtin/fs-error.js';
import { resolveInWorkspace, toWorkspaceRelative } from '../builtin/workspace-path.js';
import { defineTool, type Tool, type ToolContext } from '../types.js';
import { addEventToFile } from './calendar-file.js';
import {
  CALENDAR_LIMITS,
  normalizeCalendarArgs,
  type CalendarArgs,
  type NormalizedCalendarArgs,
} from './calendar-args.js';
import { resolveCalendarTarget, type CalendarEnv } from './calendar-config.js';
import { createOnCalDav } from './caldav.js';
import { calendarText, veventLines, type VEventFields } from './icalendar.js';

export interface CalendarEventOptions {
  /** Settings such as `CADRE_CALDAV_URL` (usually process.env, passed in). */
  env: CalendarEnv;
  /** Calendar file relative to the workspace; `calendar.ics` by default. */
  calendarFile?: string;
  /** Clock for DTSTAMP (tests pin it). */
  now?: () => Date;
}

export type CalendarEventResult = {
  uid: string;
  start: string;
  end: string;
  /** False when an event with this UID was already there (a repeated action). */
  created: boolean;
} & ({ target: 'file'; path: string } | { target: 'caldav'; url: string });

/**
 * One UID per action, so a repeated execution of the same action finds its
 * event instead of adding a second one; random when there is no action id.
 */
export function eventUid(ctx: Pick<ToolContext, 'actionId'>): string {
  const id =
    ctx.actionId === undefined
      ? randomUUID()
      : createHash('sha256').update(ctx.actionId).digest('hex').slice(0, 32);
  return `${id}@cadre`;
}

/** `Create "Standup" on 2026-12-01 09:00–09:15 UTC (3 attendees)` */
function previewEvent(args: unknown): string {
  const normalized = normalizeCalendarArgs(args);
  if (!normalized.ok) return `Create a calendar event (refused: ${normalized.reason})`;
  const { title, start, end, attendees } = normalized.args;
  const shown = title.length > 80 ? `${title.slice(0, 79)}…` : title;
  const [startDay, startTime] = [start.slice(0, 10), start.slice(11, 16)];
  const [endDay, endTime] = [end.slice(0, 10), end.slice(11, 16)];
  const when =
    startDay === endDay
      ? `on ${startDay} ${startTime}–${endTime} UTC`
      : `from ${startDay} ${startTime} to ${endDay} ${endTime} UTC`;
  const count = attendees.length;
  const who = count === 0 ? '' : ` (${count} attendee${count === 1 ? '' : 's'})`;
  return `Create "${shown}" ${when}${who}`;
}

export function createCalendarEventTool(options: CalendarEventOptions): Tool {
  const calendarFile = options.calendarFile ?? 'calendar.ics';
  const now = options.now ?? ((): Date => new Date());
  return defineTool<CalendarArgs>({
    name: 'calendar_event_create',
    description:
      'Create a calendar event. `start` and `end` are ISO 8601 date-times WITH a time zone offset ' +
      '(2026-12-01T09:00:00Z or 2026-12-01T10:00:00+01:00); `end` must be after `start`. ' +
      `Attendees are bare email addresses (at most ${CALENDAR_LIMITS.maxAttendees}). Needs the ` +
      "user's approval unless they always allowed every attendee. Returns the event's UID and times in UTC.",
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, description: 'One-line event title.' },
        start: { type: 'string', description: 'Start, ISO 8601 with offset.' },
        end: { type: 'string', description: 'End, ISO 8601 with offset.' },
        description: { type: 'string', description: 'Longer notes; may span lines.' },
        location: { type: 'string', description: 'Where, one line.' },
        attendees: {
          type: 'array',
          items: { type: 'string' },
          description: 'Email addresses of the people invited.',
        },
      },
      required: ['title', 'start', 'end'],
      additionalProperties: false,
    },
    sideEffect: true,
    // One UID per action (run and call id): a second run of the same call finds its event.
    delivery: 'exactly-once',
    defaultApproval: 'require',
    preview: previewEvent,
    async execute(args, ctx): Promise<CalendarEventResult> {
      throwIfAborted(ctx.signal);
      const normalized = normalizeCalendarArgs(args);
      if (!normalized.ok) throw new ValidationError([{ path: '', message: normalized.reason }]);
      const target = resolveCalendarTarget(options.env);
      const event = normalized.args;
      const uid = eventUid(ctx);
      const lines = veventLines(toFields(event, uid, now()));
      const base = { uid, start: event.start, end: event.end };
      switch (target.kind) {
        case 'caldav': {
          const done = await createOnCalDav(target.settings, uid, calendarText(lines), ctx.signal);
          return { ...base, created: done.created, target: 'caldav', url: done.url };
        }
        case 'file': {
          const file = await resolveInWorkspace(ctx, calendarFile);
          const display = toWorkspaceRelative(ctx.workspace, file);
          try {
            await mkdir(path.dirname(file), { recursive: true });
            const done = await addEventToFile(file, display, uid, lines, ctx.signal);
            return { ...base, created: done.created, target: 'file', path: display };
          } catch (error) {
            throw toToolError(error, display);
          }
        }
        default:
          return target satisfies never;
      }
    },
  });
}

function toFields(event: NormalizedCalendarArgs, uid: string, stamp: Date): VEventFields {
  return {
    uid,
    stamp,
    start: new Date(event.start),
    end: new Date(event.end),
    title: event.title,
    attendees: event.attendees,
    ...(event.description === undefined ? {} : { description: event.description }),
    ...(event.location === undefined ? {} : { location: event.location }),
  };
}
