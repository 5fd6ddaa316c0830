import { describe, expect, it } from 'vitest';
import {
  ALLOW,
  AUTO,
  CAL,
  GMAIL,
  READ,
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

describe('decide: trust presets', () => {
  const granted = [grant('gmail_send', 'a@x.com')];
  it.each<[string, Row]>([
    [
      'unset trust means delegated',
      { tool: GMAIL, call: mail('a@x.com'), grants: granted, expected: ALLOW },
    ],
    [
      'options.defaultTrust applies to principals without one',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        grants: granted,
        options: { defaultTrust: 'supervised' },
        expected: ask(/Supervised/),
      },
    ],
    [
      'the principal’s own trust beats the default',
      {
        principal: user('delegated'),
        tool: GMAIL,
        call: mail('a@x.com'),
        grants: granted,
        options: { defaultTrust: 'supervised' },
        expected: ALLOW,
      },
    ],
    [
      'supervised ignores grants',
      {
        principal: user('supervised'),
        tool: GMAIL,
        call: mail('a@x.com'),
        grants: granted,
        expected: ask(/Supervised mode: gmail_send/),
      },
    ],
    [
      'supervised ignores defaultApproval auto',
      { principal: user('supervised'), tool: AUTO, call: plain(), expected: ask(/Supervised/) },
    ],
    [
      'supervised ignores allow rules',
      {
        principal: user('supervised'),
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [{ tool: 'gmail_send', decision: 'allow', reason: 'ok' }],
        expected: ask(/Supervised/),
      },
    ],
    [
      'supervised keeps a rule’s own approval reason',
      {
        principal: user('supervised'),
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [{ tool: 'gmail_send', decision: 'require_approval', reason: 'external mail' }],
        expected: ask('external mail'),
      },
    ],
    [
      'supervised still denies by rule',
      {
        principal: user('supervised'),
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [{ tool: 'gmail_send', decision: 'deny', reason: 'no mail' }],
        expected: deny('no mail'),
      },
    ],
    [
      'supervised does not touch read-only tools',
      { principal: user('supervised'), tool: READ, call: plain(), expected: ALLOW },
    ],
    [
      'autonomous allows side effects without grants',
      {
        principal: user('autonomous'),
        tool: GMAIL,
        call: mail(['a@x.com', 'b@y.org']),
        expected: ALLOW,
      },
    ],
    [
      'autonomous follows a require_approval rule',
      {
        principal: user('autonomous'),
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [{ tool: 'gmail_*', decision: 'require_approval', reason: 'mail is reviewed' }],
        expected: ask('mail is reviewed'),
      },
    ],
    [
      'autonomous follows a deny rule',
      {
        principal: user('autonomous'),
        tool: CAL,
        call: event(),
        rules: [{ tool: 'calendar_*', decision: 'deny', reason: 'read-only calendar' }],
        expected: deny('read-only calendar'),
      },
    ],
  ])('%s', (_name, row) => {
    expect(run(row)).toEqual(row.expected);
  });
});
