import { access } from 'node:fs/promises';
import path from 'node:path';
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthError, ConfigError } from '../../errors/index.js';
import { makeWorkspace, type TestWorkspace } from '../builtin/testing/test-support.js';
import { createCalendarEventTool } from './calendar-event-create.js';
import {
  FAKE_CALDAV_CREDENTIALS,
  startFakeCalDav,
  type FakeCalDav,
} from './testing/test-support.js';

let dav: FakeCalDav;
let ws: TestWorkspace;
beforeEach(async () => {
  dav = await startFakeCalDav();
  ws = await makeWorkspace();
});
afterEach(async () => {
  await dav.close();
  await ws.cleanup();
});

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  CADRE_CALDAV_URL: dav.url,
  CADRE_CALDAV_USERNAME: FAKE_CALDAV_CREDENTIALS.username,
  CADRE_CALDAV_PASSWORD: FAKE_CALDAV_CREDENTIALS.password,
  ...extra,
});
const args = {
  title: 'Standup',
  start: '2026-12-01T09:00:00Z',
  end: '2026-12-01T09:15:00Z',
  attendees: ['bob@example.com'],
};

describe('calendar_event_create on a CalDAV server (tsdav against a local fake)', () => {
  it('discovers the account and PUTs the event into the first event calendar', async () => {
    const tool = createCalendarEventTool({ env: env() });
    const result = await tool.execute(args, { ...ws.ctx, actionId: 'act-1' });
    const [objectPath, stored] = [...dav.objects.entries()][0] ?? [];
    expect(objectPath).toMatch(/^\/dav\/calendars\/alice\/work\/[0-9a-f]{32}%40cadre\.ics$/);
    expect(result).toMatchObject({ target: 'caldav', created: true, start: args.start });
    expect((result as { url: string }).url).toBe(new URL(objectPath ?? '', dav.url).href);
    expect(stored?.contentType).toMatch(/^text\/calendar/);
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(stored?.body ?? '')).getFirstSubcomponent('vevent') ??
        undefined,
    );
    expect(event.summary).toBe('Standup');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(event.attendees[0]?.getFirstValue()).toBe('mailto:bob@example.com');
    // Nothing went to the workspace file.
    await expect(access(path.join(ws.root, 'calendar.ics'))).rejects.toThrow(/ENOENT/);
  });

  it('writes to the calendar named by CADRE_CALDAV_CALENDAR', async () => {
    const tool = createCalendarEventTool({ env: env({ CADRE_CALDAV_CALENDAR: 'personal' }) });
    await tool.execute(args, ws.ctx);
    expect([...dav.objects.keys()][0]).toMatch(/^\/dav\/calendars\/alice\/personal\//);
  });

  it('does not create the same action twice (If-None-Match: *, 412 → created: false)', async () => {
    const tool = createCalendarEventTool({ env: env() });
    const ctx = { ...ws.ctx, actionId: 'act-same' };
    await expect(tool.execute(args, ctx)).resolves.toMatchObject({ created: true });
    await expect(tool.execute(args, ctx)).resolves.toMatchObject({ created: false });
    expect(dav.objects.size).toBe(1);
  });

  it('fails with a safe error for an unknown calendar name or bad credentials', async () => {
    const named = createCalendarEventTool({ env: env({ CADRE_CALDAV_CALENDAR: 'Nope' }) });
    await expect(named.execute(args, ws.ctx)).rejects.toThrow('No CalDAV calendar has the name');
    const wrong = createCalendarEventTool({ env: env({ CADRE_CALDAV_PASSWORD: 'bad' }) });
    const error = (await wrong.execute(args, ws.ctx).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).not.toContain('bad');
    expect(dav.objects.size).toBe(0);
  });

  it('needs a user name and password with the URL', async () => {
    const tool = createCalendarEventTool({ env: { CADRE_CALDAV_URL: dav.url } });
    await expect(tool.execute(args, ws.ctx)).rejects.toThrow(ConfigError);
    await expect(tool.execute(args, ws.ctx)).rejects.toThrow(
      'also set CADRE_CALDAV_USERNAME and CADRE_CALDAV_PASSWORD',
    );
    expect(dav.requests).toHaveLength(0);
  });
});
