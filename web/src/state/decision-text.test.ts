import { describe, expect, it } from 'vitest';
import type { DecisionView } from '../api/wire-types.js';
import { decisionDetail, decisionText } from './decision-text.js';

const base: DecisionView = {
  approvalId: 'a1',
  callId: 'c1',
  tool: 'gmail_send',
  askedAt: '2026-01-01T14:01:00.000Z',
  decision: 'approve_once',
  decidedBy: 'ann',
  decidedAt: '2026-01-01T14:02:00.000Z',
};
const at = new Date(base.decidedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

describe('decision text', () => {
  it('names who decided, when, and the feedback given with a rejection', () => {
    expect(decisionText(base)).toBe(`Approved by ann at ${at}`);
    expect(decisionText({ ...base, decision: 'approve_and_always_allow_recipient' })).toBe(
      `Approved by ann at ${at}, and always allowed for this recipient`,
    );
    expect(decisionText({ ...base, decision: 'reject', feedback: 'Ask Carol' })).toBe(
      `Rejected by ann at ${at}: Ask Carol`,
    );
  });

  it('beside a step, leaves out the verb its badge already says', () => {
    const rejected = { ...base, decision: 'reject' as const, feedback: 'Ask Carol' };
    expect(decisionDetail(rejected, 'rejected')).toBe(`by ann at ${at}: Ask Carol`);
    expect(decisionDetail(base, 'approved')).toBe(`by ann at ${at}`);
    expect(decisionDetail(base, 'done')).toBe(`approved by ann at ${at}`);
    expect(decisionDetail(base, 'failed')).toBe(`approved by ann at ${at}`);
  });
});
