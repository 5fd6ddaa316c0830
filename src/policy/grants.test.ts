import { describe, expect, it } from 'vitest';
import { describeGrantUse, grantCoverage, grantsForAgent, grantsForApproval } from './grants.js';
import { normalizeCall } from './normalize-call.js';

describe('grantsForApproval (approve_and_always_allow_recipient)', () => {
  it('stores one grant per recipient of a mail: to, cc and bcc', () => {
    const call = normalizeCall('gmail_send', {
      to: 'A@x.com',
      cc: ['b@x.com'],
      bcc: 'c@x.com',
      subject: 's',
      body: 'b',
    });
    const grants = grantsForApproval('gmail_send', call);
    expect(grants).toEqual([
      { tool: 'gmail_send', recipient: 'a@x.com' },
      { tool: 'gmail_send', recipient: 'b@x.com' },
      { tool: 'gmail_send', recipient: 'c@x.com' },
    ]);
    expect(grantCoverage('gmail_send', call.ok ? call.recipients : [], grants)).toEqual({
      covered: true,
      missing: 0,
      by: grants,
    });
  });

  it('stores no grant for an event without attendees: a * would let later invitations reach anyone', () => {
    const call = normalizeCall('calendar_event_create', {
      title: 't',
      start: '2026-12-01T09:00:00Z',
      end: '2026-12-01T10:00:00Z',
    });
    expect(call.ok && call.recipients).toEqual([]);
    expect(grantsForApproval('calendar_event_create', call)).toEqual([]);
  });

  it('stores the tool’s * grant only for a tool that has no recipients at all', () => {
    expect(grantsForApproval('write_file', normalizeCall('write_file', { path: 'a' }))).toEqual([
      { tool: 'write_file', recipient: '*' },
    ]);
  });

  it('stores nothing for a refused call', () => {
    expect(grantsForApproval('gmail_send', { ok: false, reason: 'bad' })).toEqual([]);
  });
});

describe('normalizeCall', () => {
  it('passes other tools’ arguments through without recipients', () => {
    expect(normalizeCall('write_file', { path: 'a' })).toEqual({ ok: true, args: { path: 'a' } });
    expect(normalizeCall('write_file', null)).toEqual({
      ok: false,
      reason: 'the arguments must be an object',
    });
  });

  it('does not treat inherited names as normalisers', () => {
    expect(normalizeCall('toString', { a: 1 })).toEqual({ ok: true, args: { a: 1 } });
  });
});

describe('agent-scoped grants', () => {
  const mine = { tool: 'gmail_send', recipient: 'ana@example.com', agent: 'assistant' };
  const other = { tool: 'gmail_send', recipient: 'ana@example.com', agent: 'mailer' };
  const anyAgent = { tool: 'write_file', recipient: '*' };

  it('an agent uses its own grants and agent-less ones, never another agent’s', () => {
    expect(grantsForAgent([mine, other, anyAgent], 'assistant')).toEqual([mine, anyAgent]);
    expect(grantsForAgent([mine, other], undefined)).toEqual([]);
  });

  it('a step run under a grant names the recipient and when it was set', () => {
    expect(describeGrantUse([{ ...mine, createdAt: '2026-11-26T02:05:41.000Z' }])).toBe(
      'allowed by your rule for ana@example.com, set 02:05 UTC',
    );
    expect(describeGrantUse([anyAgent])).toBe(
      'allowed by your rule for any recipient of write_file',
    );
  });
});
