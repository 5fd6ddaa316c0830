import { describe, expect, it } from 'vitest';
import {
  ALLOW,
  AUTO,
  CAL,
  GMAIL,
  READ,
  WRITE,
  ask,
  deny,
  event,
  grant,
  mail,
  plain,
  run,
  user,
  type Row,
} from './testing/test-support.js';
import { normalizeCall } from './normalize-call.js';
import type { PolicyRule } from './types.js';

describe('decide: defaults from the runtime spec (delegated)', () => {
  it.each<[string, Row]>([
    ['read-only tools are allowed', { tool: READ, call: plain(), expected: ALLOW }],
    [
      'a side effect needs approval',
      { tool: WRITE, call: plain(), expected: ask(/write_file has side effects/) },
    ],
    [
      'mail without grants needs approval',
      { tool: GMAIL, call: mail('a@x.com'), expected: ask(/1 of 1 recipient is not/) },
    ],
    [
      'mail to a granted recipient runs',
      {
        tool: GMAIL,
        call: mail('A@X.com'),
        grants: [grant('gmail_send', 'a@x.com')],
        expected: ALLOW,
      },
    ],
    [
      'a grant matches case-insensitively',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        grants: [grant('gmail_send', 'A@X.COM')],
        expected: ALLOW,
      },
    ],
    [
      'every recipient must be granted: to + cc + bcc, partial grants ask',
      {
        tool: GMAIL,
        call: mail('a@x.com', { cc: 'b@x.com', bcc: ['c@x.com'] }),
        grants: [grant('gmail_send', 'a@x.com'), grant('gmail_send', 'b@x.com')],
        expected: ask(/1 of 3 recipients are not on the allowlist/),
      },
    ],
    [
      'a granted bcc does not cover an ungranted to',
      {
        tool: GMAIL,
        call: mail(['a@x.com', 'b@x.com'], { bcc: 'c@x.com' }),
        grants: [grant('gmail_send', 'c@x.com')],
        expected: ask(/2 of 3 recipients/),
      },
    ],
    [
      'all three granted runs',
      {
        tool: GMAIL,
        call: mail('a@x.com', { cc: 'b@x.com', bcc: 'c@x.com' }),
        grants: ['a@x.com', 'b@x.com', 'c@x.com'].map((r) => grant('gmail_send', r)),
        expected: ALLOW,
      },
    ],
    [
      'a grant for another tool does not count',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        grants: [grant('calendar_event_create', 'a@x.com')],
        expected: ask(/not on the allowlist/),
      },
    ],
    [
      'the tool wildcard grant covers any recipients',
      {
        tool: GMAIL,
        call: mail(['a@x.com', 'z@y.org']),
        grants: [grant('gmail_send', '*')],
        expected: ALLOW,
      },
    ],
    [
      'calendar: every attendee granted runs',
      {
        tool: CAL,
        call: event(['a@x.com', 'b@x.com']),
        grants: [
          grant('calendar_event_create', 'a@x.com'),
          grant('calendar_event_create', 'b@x.com'),
        ],
        expected: ALLOW,
      },
    ],
    [
      'calendar: one attendee missing asks',
      {
        tool: CAL,
        call: event(['a@x.com', 'b@x.com']),
        grants: [grant('calendar_event_create', 'a@x.com')],
        expected: ask(/1 of 2 recipients/),
      },
    ],
    [
      'calendar: no attendees needs the * grant',
      {
        tool: CAL,
        call: event(),
        grants: [grant('calendar_event_create', 'a@x.com')],
        expected: ask(/no standing grant/),
      },
    ],
    [
      'calendar: no attendees with the * grant runs',
      { tool: CAL, call: event(), grants: [grant('calendar_event_create', '*')], expected: ALLOW },
    ],
    [
      'a tool without recipients runs with its * grant',
      { tool: WRITE, call: plain(), grants: [grant('write_file', '*')], expected: ALLOW },
    ],
    [
      'defaultApproval auto is honoured for a tool without recipients',
      { tool: AUTO, call: plain(), expected: ALLOW },
    ],
    [
      'defaultApproval auto is ignored for a tool with recipients',
      {
        tool: { ...GMAIL, defaultApproval: 'auto' },
        call: mail('a@x.com'),
        expected: ask(/not on the allowlist/),
      },
    ],
    [
      'defaultApproval auto is ignored when a rule requires approval',
      {
        tool: AUTO,
        call: plain(),
        rules: [{ tool: 'note_*', decision: 'require_approval', reason: 'notes are reviewed' }],
        expected: ask('notes are reviewed'),
      },
    ],
  ])('%s', (_name, row) => {
    expect(run(row)).toEqual(row.expected);
  });
});

describe('decide: refusals that nothing overrides', () => {
  const everything = {
    grants: [grant('gmail_send', '*')],
    rules: [{ tool: '*', decision: 'allow', reason: 'open' } as PolicyRule],
  };
  it.each<[string, Row]>([
    [
      'malformed arguments are denied before approval',
      {
        tool: GMAIL,
        call: mail('a@@x.com'),
        expected: deny(/^Refused before approval: "to": "a@@x.com" is not a valid/),
      },
    ],
    [
      'header injection is denied before approval',
      {
        tool: GMAIL,
        call: mail('a@x.com', { subject: 'x\r\nBcc: e@v.il' }),
        expected: deny(/one line/),
      },
    ],
    [
      'bad calendar times are denied',
      {
        tool: CAL,
        call: normalizeCall('calendar_event_create', { title: 'T', start: 'soon', end: 'later' }),
        expected: deny(/"start"/),
      },
    ],
    [
      'refusals beat grants, allow rules and autonomy',
      {
        principal: user('autonomous'),
        tool: GMAIL,
        call: mail('bad'),
        ...everything,
        expected: deny(/Refused before approval/),
      },
    ],
    [
      'CADRE_SIDE_EFFECTS=off denies side effects',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        options: { sideEffects: 'off' },
        expected: deny(/CADRE_SIDE_EFFECTS=off/),
      },
    ],
    [
      'the switch beats grants, allow rules and autonomy',
      {
        principal: user('autonomous'),
        tool: GMAIL,
        call: mail('a@x.com'),
        ...everything,
        options: { sideEffects: 'off' },
        expected: deny(/turned off/),
      },
    ],
    [
      'the switch beats defaultApproval auto',
      { tool: AUTO, call: plain(), options: { sideEffects: 'off' }, expected: deny(/turned off/) },
    ],
    [
      'the switch leaves read-only tools alone',
      { tool: READ, call: plain(), options: { sideEffects: 'off' }, expected: ALLOW },
    ],
  ])('%s', (_name, row) => {
    expect(run(row)).toEqual(row.expected);
  });
});
