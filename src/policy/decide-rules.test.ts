import { describe, expect, it } from 'vitest';
import { decide } from './decide.js';
import type { PolicyRule } from './types.js';
import {
  ALLOW,
  GMAIL,
  READ,
  ask,
  deny,
  grant,
  mail,
  plain,
  run,
  user,
  type Row,
} from './testing/test-support.js';

describe('decide: rules', () => {
  const internalOnly: PolicyRule = {
    tool: 'gmail_*',
    when: { recipients: '*@example.com' },
    decision: 'allow',
    reason: 'internal mail',
  };
  const noCompetitor: PolicyRule = {
    tool: 'gmail_*',
    when: { recipients: '*@rival.com' },
    decision: 'deny',
    reason: 'never mail the rival',
  };
  it.each<[string, Row]>([
    [
      'a deny rule beats grants',
      {
        tool: GMAIL,
        call: mail('x@rival.com'),
        grants: [grant('gmail_send', 'x@rival.com')],
        rules: [noCompetitor],
        expected: deny('never mail the rival'),
      },
    ],
    [
      'a deny rule fires when ANY recipient matches (even in bcc)',
      {
        tool: GMAIL,
        call: mail('a@example.com', { bcc: 'spy@rival.com' }),
        rules: [noCompetitor],
        expected: deny('never mail the rival'),
      },
    ],
    [
      'an allow rule needs EVERY recipient to match',
      {
        tool: GMAIL,
        call: mail('a@example.com', { bcc: 'x@other.org' }),
        rules: [internalOnly],
        expected: ask(/recipients are not on the allowlist/),
      },
    ],
    [
      'an allow rule with every recipient inside allows',
      {
        tool: GMAIL,
        call: mail(['a@example.com', 'b@example.com'], { cc: 'c@example.com' }),
        rules: [internalOnly],
        expected: ALLOW,
      },
    ],
    [
      'first matching rule wins (allow listed first)',
      {
        tool: GMAIL,
        call: mail('a@example.com'),
        rules: [internalOnly, { tool: '*', decision: 'deny', reason: 'later' }],
        expected: ALLOW,
      },
    ],
    [
      'first matching rule wins (deny listed first)',
      {
        tool: GMAIL,
        call: mail('a@example.com'),
        rules: [{ tool: '*', decision: 'deny', reason: 'first' }, internalOnly],
        expected: deny('first'),
      },
    ],
    [
      'a require_approval rule beats grants',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        grants: [grant('gmail_send', 'a@x.com')],
        rules: [{ tool: 'gmail_send', decision: 'require_approval', reason: 'always review' }],
        expected: ask('always review'),
      },
    ],
    [
      'a rule for another tool does not apply',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        grants: [grant('gmail_send', 'a@x.com')],
        rules: [{ tool: 'calendar_*', decision: 'deny', reason: 'x' }],
        expected: ALLOW,
      },
    ],
    [
      'rules apply to read-only tools too',
      {
        tool: READ,
        call: plain(),
        rules: [{ tool: 'read_*', decision: 'deny', reason: 'no reading' }],
        expected: deny('no reading'),
      },
    ],
    [
      'a rule for a user id',
      {
        principal: { userId: 'intern' },
        tool: GMAIL,
        call: mail('a@x.com'),
        grants: [grant('gmail_send', 'a@x.com')],
        rules: [
          { tool: '*', principal: 'intern', decision: 'deny', reason: 'interns do not send' },
        ],
        expected: deny('interns do not send'),
      },
    ],
    [
      'a rule for another user is skipped',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        grants: [grant('gmail_send', 'a@x.com')],
        rules: [{ tool: '*', principal: 'intern', decision: 'deny', reason: 'x' }],
        expected: ALLOW,
      },
    ],
    [
      'a rule for a trust level',
      {
        principal: user('autonomous'),
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [
          {
            tool: 'gmail_send',
            principal: 'autonomous',
            when: { recipients: { min: 3 } },
            decision: 'require_approval',
            reason: 'bulk mail',
          },
        ],
        expected: ALLOW,
      },
    ],
    [
      'a trust-level rule fires when its condition holds',
      {
        principal: user('autonomous'),
        tool: GMAIL,
        call: mail(['a@x.com', 'b@x.com', 'c@x.com']),
        rules: [
          {
            tool: 'gmail_send',
            principal: 'autonomous',
            when: { recipients: { min: 3 } },
            decision: 'require_approval',
            reason: 'bulk mail',
          },
        ],
        expected: ask('bulk mail'),
      },
    ],
  ])('%s', (_name, row) => {
    expect(run(row)).toEqual(row.expected);
  });

  it('is pure: the same inputs give the same decision and nothing is mutated', () => {
    const grants = Object.freeze([grant('gmail_send', 'a@x.com')]);
    const rules = Object.freeze([Object.freeze(noCompetitor)]);
    const call = mail('a@x.com');
    const first = decide(user(), GMAIL, call, grants, rules);
    expect(decide(user(), GMAIL, call, grants, rules)).toEqual(first);
    expect(first).toEqual(ALLOW);
  });
});
