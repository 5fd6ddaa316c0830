import { describe, expect, it } from 'vitest';
import {
  ALLOW,
  GMAIL,
  WRITE,
  ask,
  deny,
  mail,
  plain,
  run,
  type Row,
} from './testing/test-support.js';

describe('decide: argument matchers in rules', () => {
  it.each<[string, Row]>([
    [
      'max on recipients',
      {
        tool: GMAIL,
        call: mail(['a@x.com', 'b@x.com']),
        rules: [
          {
            tool: 'gmail_send',
            when: { recipients: { max: 2 } },
            decision: 'allow',
            reason: 'small',
          },
        ],
        expected: ALLOW,
      },
    ],
    [
      'max exceeded does not match',
      {
        tool: GMAIL,
        call: mail(['a@x.com', 'b@x.com', 'c@x.com']),
        rules: [
          {
            tool: 'gmail_send',
            when: { recipients: { max: 2 } },
            decision: 'allow',
            reason: 'small',
          },
        ],
        expected: ask(/3 of 3/),
      },
    ],
    [
      'matches (regex) on a string argument',
      {
        tool: GMAIL,
        call: mail('a@x.com', { subject: '[URGENT] now' }),
        rules: [
          {
            tool: 'gmail_send',
            when: { subject: { matches: '^\\[URGENT\\]' } },
            decision: 'deny',
            reason: 'no urgent mail',
          },
        ],
        expected: deny('no urgent mail'),
      },
    ],
    [
      'equals on an argument',
      {
        tool: WRITE,
        call: plain({ path: '.env' }),
        rules: [
          {
            tool: 'write_file',
            when: { path: { equals: '.env' } },
            decision: 'deny',
            reason: 'secrets',
          },
        ],
        expected: deny('secrets'),
      },
    ],
    [
      'equals that does not hold',
      {
        tool: WRITE,
        call: plain({ path: 'a.txt' }),
        rules: [
          {
            tool: 'write_file',
            when: { path: { equals: '.env' } },
            decision: 'deny',
            reason: 'secrets',
          },
        ],
        expected: ask(/side effects/),
      },
    ],
    [
      'a condition on a missing argument does not match',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [{ tool: 'gmail_send', when: { cc: '*' }, decision: 'deny', reason: 'no cc' }],
        expected: ask(/not on the allowlist/),
      },
    ],
    [
      'several conditions must all hold',
      {
        tool: GMAIL,
        call: mail('a@example.com', { subject: 'Hi' }),
        rules: [
          {
            tool: 'gmail_send',
            when: { to: '*@example.com', subject: 'Invoice*' },
            decision: 'allow',
            reason: 'x',
          },
        ],
        expected: ask(/not on the allowlist/),
      },
    ],
    [
      'a bad regex built in code fails closed for deny',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [
          {
            tool: 'gmail_send',
            when: { subject: { matches: '(' } },
            decision: 'deny',
            reason: 'broken',
          },
        ],
        expected: deny('broken'),
      },
    ],
    [
      'a bad regex built in code fails closed for allow',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [
          {
            tool: 'gmail_send',
            when: { subject: { matches: '(' } },
            decision: 'allow',
            reason: 'broken',
          },
        ],
        expected: ask(/not on the allowlist/),
      },
    ],
    [
      'a catastrophic regex on a hostile argument decides promptly: no match',
      {
        tool: GMAIL,
        // A backtracking RegExp needs about 2^40 steps here; the linear-time engine does not.
        call: mail('a@x.com', { subject: `${'a'.repeat(40)}!` }),
        rules: [
          {
            tool: 'gmail_send',
            when: { subject: { matches: '^(a+)+$' } },
            decision: 'deny',
            reason: 'only a',
          },
        ],
        expected: ask(/not on the allowlist/),
      },
    ],
    [
      'a catastrophic regex on a hostile argument decides promptly: a match',
      {
        tool: GMAIL,
        call: mail('a@x.com', { subject: 'a'.repeat(40) }),
        rules: [
          {
            tool: 'gmail_send',
            when: { subject: { matches: '^(a+)+$' } },
            decision: 'deny',
            reason: 'only a',
          },
        ],
        expected: deny('only a'),
      },
    ],
    [
      'a backreference (the linear-time engine has none) fails closed for deny',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [
          {
            tool: 'gmail_send',
            when: { subject: { matches: '(x)\\1' } },
            decision: 'deny',
            reason: 'unsupported',
          },
        ],
        expected: deny('unsupported'),
      },
    ],
    [
      'a lookahead (the linear-time engine has none) fails closed for allow',
      {
        tool: GMAIL,
        call: mail('a@x.com'),
        rules: [
          {
            tool: 'gmail_send',
            when: { subject: { matches: '^(?=Rep)' } },
            decision: 'allow',
            reason: 'unsupported',
          },
        ],
        expected: ask(/not on the allowlist/),
      },
    ],
    [
      'a matches rule on every recipient of an array argument',
      {
        tool: GMAIL,
        call: mail(['a@x.com', 'b@x.com']),
        rules: [
          {
            tool: 'gmail_send',
            when: { to: { matches: '@x\\.com$' } },
            decision: 'allow',
            reason: 'x',
          },
        ],
        expected: ALLOW,
      },
    ],
  ])('%s', (_name, row) => {
    expect(run(row)).toEqual(row.expected);
  });
});
