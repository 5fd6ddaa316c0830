import { execFileSync } from 'node:child_process';
import { chmod, link, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, ToolExecutionError, ValidationError } from '../../errors/index.js';
import { contextFor, makeWorkspace, type TestWorkspace } from '../builtin/testing/test-support.js';
import { createCalendarEventTool, eventUid } from './calendar-event-create.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const STAMP = new Date('2026-11-20T08:00:00Z');
const tool = createCalendarEventTool({ env: {}, now: () => STAMP });
const read = (rel = 'calendar.ics'): Promise<string> => readFile(path.join(ws.root, rel), 'utf8');
const parseEvents = (text: string): InstanceType<typeof ICAL.Event>[] =>
  new ICAL.Component(ICAL.parse(text))
    .getAllSubcomponents('vevent')
    .map((vevent) => new ICAL.Event(vevent));

const full = {
  title: 'Plan; review, and \\ decide — Zoë ✓',
  start: '2026-12-01T10:00:00+01:00',
  end: '2026-12-01T10:15:00+01:00',
  description: `Agenda:\n1. Numbers; costs, risks\n2. ${'Long line with words and ümlauts. '.repeat(6)}`,
  location: 'Room 4, Building B; 2nd floor',
  attendees: ['Alice@Example.com', 'bob@example.com', 'carol@example.org'],
};

describe('calendar_event_create into the workspace calendar file', () => {
  it('creates calendar.ics with PRODID/VERSION and an event ical.js reads back field by field', async () => {
    const result = await tool.execute(full, { ...ws.ctx, actionId: 'act-42' });
    expect(result).toEqual({
      uid: eventUid({ actionId: 'act-42' }),
      start: '2026-12-01T09:00:00Z',
      end: '2026-12-01T09:15:00Z',
      created: true,
      target: 'file',
      path: 'calendar.ics',
    });

    const text = await read();
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Cadre//calendar_event_create//EN');

    const [event] = parseEvents(text);
    expect(event?.uid).toBe(eventUid({ actionId: 'act-42' }));
    expect(event?.summary).toBe(full.title);
    expect(event?.description).toBe(full.description.trim());
    expect(event?.location).toBe(full.location);
    expect(event?.startDate.toString()).toBe('2026-12-01T09:00:00Z');
    expect(event?.endDate.toString()).toBe('2026-12-01T09:15:00Z');
    expect(event?.startDate.zone.tzid).toBe('UTC');
    expect(event?.component.getFirstPropertyValue('dtstamp')?.toString()).toBe(
      '2026-11-20T08:00:00Z',
    );
    expect(event?.attendees.map((a) => [a.getParameter('cn'), a.getFirstValue()])).toEqual([
      ['alice@example.com', 'mailto:alice@example.com'],
      ['bob@example.com', 'mailto:bob@example.com'],
      ['carol@example.org', 'mailto:carol@example.org'],
    ]);
  });

  it('writes escaped TEXT, CRLF line ends and lines folded at 75 octets', async () => {
    await tool.execute(full, ws.ctx);
    const text = await read();
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const physical = text.split('\r\n');
    for (const line of physical) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    const unfolded = text.replace(/\r\n /g, '');
    expect(unfolded).toContain('SUMMARY:Plan\\; review\\, and \\\\ decide — Zoë ✓\r\n');
    expect(unfolded).toContain('LOCATION:Room 4\\, Building B\\; 2nd floor\r\n');
    expect(unfolded).toContain('DESCRIPTION:Agenda:\\n1. Numbers\\; costs\\, risks\\n2. Long line');
    expect(physical.some((line) => line.startsWith(' '))).toBe(true);
    expect(unfolded).toContain('DTSTART:20261201T090000Z\r\n');
  });

  it('appends a second event inside the same VCALENDAR; both survive', async () => {
    await tool.execute(full, ws.ctx);
    await tool.execute(
      { title: 'Retro', start: '2026-12-02T15:00:00Z', end: '2026-12-02T16:00:00Z' },
      ws.ctx,
    );
    const text = await read();
    expect(text.match(/^BEGIN:VCALENDAR/gm)).toHaveLength(1);
    const events = parseEvents(text);
    expect(events.map((e) => e.summary)).toEqual([full.title, 'Retro']);
    expect(new Set(events.map((e) => e.uid)).size).toBe(2);
    expect(events[1]?.attendees).toEqual([]);
  });

  it('keeps what an existing calendar already holds, and its permissions', async () => {
    await ws.write({
      'calendar.ics':
        'BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Other//EN\nBEGIN:VEVENT\nUID:old@x\nDTSTAMP:20260101T000000Z\nDTSTART:20260101T100000Z\nSUMMARY:Old\nEND:VEVENT\nEND:VCALENDAR\n',
    });
    await chmod(path.join(ws.root, 'calendar.ics'), 0o600);
    await tool.execute(full, ws.ctx);
    expect((await stat(path.join(ws.root, 'calendar.ics'))).mode & 0o777).toBe(0o600);
    const text = await read();
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Other//EN');
    const events = parseEvents(text);
    expect(events.map((e) => e.summary)).toEqual(['Old', full.title]);
    expect(events[0]?.uid).toBe('old@x');
  });

  it('does not add an action’s event twice', async () => {
    const ctx = { ...ws.ctx, actionId: 'act-7' };
    await tool.execute(full, ctx);
    await expect(tool.execute(full, ctx)).resolves.toMatchObject({ created: false });
    expect(parseEvents(await read())).toHaveLength(1);
  });

  it('loses no event when several are created at once', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        tool.execute(
          { title: `E${i}`, start: '2026-12-01T09:00:00Z', end: '2026-12-01T10:00:00Z' },
          ws.ctx,
        ),
      ),
    );
    expect(
      parseEvents(await read())
        .map((e) => e.summary)
        .sort(),
    ).toEqual(['E0', 'E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7']);
  });

  it('writes to a configured file in a subfolder and refuses one that is not a calendar', async () => {
    const custom = createCalendarEventTool({ env: {}, calendarFile: 'cal/team.ics' });
    await expect(custom.execute(full, ws.ctx)).resolves.toMatchObject({ path: 'cal/team.ics' });
    expect(parseEvents(await read('cal/team.ics'))).toHaveLength(1);

    await writeFile(path.join(ws.root, 'calendar.ics'), 'not a calendar\n');
    await expect(tool.execute(full, ws.ctx)).rejects.toThrow(ToolExecutionError);
    expect(await read()).toBe('not a calendar\n');
  });

  it('refuses a calendar file outside the workspace', async () => {
    const escape = createCalendarEventTool({ env: {}, calendarFile: '../outside.ics' });
    await expect(escape.execute(full, ws.ctx)).rejects.toThrow(/outside the workspace/);
  });

  it('fails fast on a FIFO, a device or a socket at the calendar path, or a FIFO for its lock', async () => {
    execFileSync('mkfifo', [path.join(ws.root, 'calendar.ics')]);
    const started = Date.now();
    await expect(tool.execute(full, ws.ctx)).rejects.toThrow(/calendar\.ics is a named pipe/);
    await rm(path.join(ws.root, 'calendar.ics'));
    execFileSync('mknod', [path.join(ws.root, 'calendar.ics'), 'c', '1', '5']);
    await expect(tool.execute(full, ws.ctx)).rejects.toThrow(/character device/);
    await rm(path.join(ws.root, 'calendar.ics'));
    const server = createServer();
    await new Promise<void>((listening) =>
      server.listen(path.join(ws.root, 'calendar.ics'), listening),
    );
    await expect(tool.execute(full, ws.ctx)).rejects.toThrow(/is a socket/);
    await new Promise((closed) => server.close(closed));
    execFileSync('mkfifo', [path.join(ws.root, 'calendar.ics.lock')]);
    await expect(tool.execute(full, ws.ctx)).rejects.toThrow(/calendar\.ics\.lock is not a lock/);
    // Each refusal came at once, not after the lock's 10 s wait or a blocked open.
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a symlink or a hard link at the calendar path that leads out of the workspace', async () => {
    const outsideFile = path.join(ws.outside, 'theirs.ics');
    await writeFile(outsideFile, 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
    await symlink(outsideFile, path.join(ws.root, 'calendar.ics'));
    await expect(tool.execute(full, ws.ctx)).rejects.toThrow(/outside the workspace/);
    await rm(path.join(ws.root, 'calendar.ics'));
    await link(outsideFile, path.join(ws.root, 'calendar.ics'));
    await expect(tool.execute(full, ws.ctx)).rejects.toThrow(/hard links/);
    expect(await readFile(outsideFile, 'utf8')).toBe('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
  });

  it('refuses bad arguments and cancelled calls without touching the file', async () => {
    await expect(tool.execute({ ...full, end: '2026-12-01T08:00:00Z' }, ws.ctx)).rejects.toThrow(
      ValidationError,
    );
    const controller = new AbortController();
    controller.abort();
    await expect(tool.execute(full, contextFor(ws.root, controller.signal))).rejects.toThrow(
      CancelledError,
    );
    await expect(read()).rejects.toThrow(/ENOENT/);
  });
});

describe('calendar_event_create metadata', () => {
  it('is a side effect needing approval, previewed in one line', () => {
    expect(tool.sideEffect).toBe(true);
    expect(tool.defaultApproval).toBe('require');
    expect(
      tool.preview?.({
        title: 'Standup',
        start: '2026-12-01T10:00:00+01:00',
        end: '2026-12-01T10:15:00+01:00',
        attendees: ['a@x.com', 'b@x.com', 'c@x.com'],
      }),
    ).toBe('Create "Standup" on 2026-12-01 09:00–09:15 UTC (3 attendees)');
    expect(
      tool.preview?.({
        title: 'Offsite',
        start: '2026-12-01T09:00:00Z',
        end: '2026-12-03T17:00:00Z',
      }),
    ).toBe('Create "Offsite" from 2026-12-01 09:00 to 2026-12-03 17:00 UTC');
  });
});
