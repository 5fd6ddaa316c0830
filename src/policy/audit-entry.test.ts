import { describe, expect, it } from 'vitest';
import { AuthError, ToolExecutionError } from '../errors/index.js';
import { canonicalHash } from '../util/canonical-json.js';
import { buildAuditEntry, type AuditFacts } from './audit-entry.js';
import { sanitizeMessage } from './sanitize.js';

const args = {
  to: ['alice@example.com'],
  cc: [],
  bcc: [],
  subject: 'Secret plan',
  body: 'the body',
};
const base: AuditFacts = {
  runId: 'run-1',
  actionId: 'act-1',
  modelName: 'gemini-2.5-flash',
  toolName: 'gmail_send',
  args,
  decision: { mode: 'allow' },
  execution: { status: 'completed' },
  timestamps: {
    decidedAt: new Date('2026-12-01T09:00:00Z'),
    finishedAt: '2026-12-01T09:00:02.000Z',
  },
};

describe('buildAuditEntry', () => {
  it('records the published audit fields with the SHA-256 of the canonical arguments', () => {
    const entry = buildAuditEntry(base);
    expect(entry).toEqual({
      runId: 'run-1',
      actionId: 'act-1',
      modelName: 'gemini-2.5-flash',
      toolName: 'gmail_send',
      inputHash: canonicalHash(args),
      policyDecision: 'allow',
      executionStatus: 'completed',
      message: 'gmail_send completed',
      timestamps: { decidedAt: '2026-12-01T09:00:00.000Z', finishedAt: '2026-12-01T09:00:02.000Z' },
    });
    expect(entry.inputHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes the same arguments the same way whatever their key order', () => {
    const reordered = {
      body: 'the body',
      subject: 'Secret plan',
      bcc: [],
      cc: [],
      to: ['alice@example.com'],
    };
    expect(buildAuditEntry({ ...base, args: reordered }).inputHash).toBe(
      buildAuditEntry(base).inputHash,
    );
    expect(buildAuditEntry({ ...base, args: { ...args, body: 'x' } }).inputHash).not.toBe(
      buildAuditEntry(base).inputHash,
    );
  });

  it.each<[string, Partial<AuditFacts>, Record<string, unknown>]>([
    [
      'a policy denial',
      {
        decision: {
          mode: 'deny',
          reason: 'Refused before approval: "to": "bob@@x.com" is not a valid email address',
        },
        execution: { status: 'not_executed' },
      },
      {
        policyDecision: 'deny',
        executionStatus: 'not_executed',
        errorCode: 'policy_error',
        message:
          'gmail_send refused by policy: Refused before approval: "…": "…" is not a valid email address',
      },
    ],
    [
      'a pending approval',
      {
        decision: {
          mode: 'require_approval',
          reason: 'gmail_send needs approval: 1 of 1 recipient is not on the allowlist.',
        },
        approvalId: 'ap-1',
        execution: { status: 'awaiting_confirmation' },
      },
      {
        policyDecision: 'require_approval',
        approvalId: 'ap-1',
        executionStatus: 'awaiting_confirmation',
        message:
          'gmail_send awaiting approval: gmail_send needs approval: 1 of 1 recipient is not on the allowlist.',
      },
    ],
    [
      'a rejection',
      {
        decision: { mode: 'require_approval', reason: 'r' },
        approvalId: 'ap-2',
        execution: { status: 'rejected' },
      },
      { executionStatus: 'rejected', message: 'gmail_send rejected by the approver' },
    ],
    [
      'a tool failure with our own error',
      {
        execution: {
          status: 'failed',
          error: new ToolExecutionError(
            'The mail server refused 1 recipient (SMTP 550) for alice@example.com.',
          ),
        },
      },
      {
        executionStatus: 'failed',
        errorCode: 'tool_execution_error',
        message: 'gmail_send failed: The mail server refused 1 recipient (SMTP 550) for [email].',
      },
    ],
    [
      'an auth failure',
      { execution: { status: 'failed', error: new AuthError('bad credentials') } },
      { errorCode: 'auth_error', message: 'gmail_send failed: bad credentials' },
    ],
    [
      'a foreign error (message not trusted)',
      { execution: { status: 'failed', error: new Error('550 <alice@example.com> Secret plan') } },
      { errorCode: 'internal_error', message: 'gmail_send failed' },
    ],
    [
      'an explicit error code',
      { execution: { status: 'failed', errorCode: 'interrupted' } },
      { errorCode: 'interrupted', message: 'gmail_send failed' },
    ],
  ])('describes %s without content', (_name, facts, expected) => {
    const entry = buildAuditEntry({ ...base, ...facts });
    expect(entry).toMatchObject(expected);
    const text = JSON.stringify(entry);
    expect(text).not.toContain('alice@example.com');
    expect(text).not.toContain('Secret plan');
    expect(text).not.toContain('the body');
  });
});

describe('sanitizeMessage', () => {
  it.each([
    ['Send to alice@example.com and mailto:bob@x.org', 'Send to [email] and mailto:[email]'],
    ['Subject "Quarterly \\"report\\"" refused', 'Subject "…" refused'],
    ["title 'Board meeting' and don't worry", "title '…' and don't worry"],
    ['“Curly” and «guillemets»', '"…" and "…"'],
    ['smtp://user:hunter2@mail.example.com failed', 'smtp://[credentials]@mail.example.com failed'],
    ['line\r\nbreaks\tand\u0000controls', 'line breaks and controls'],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeMessage(input)).toBe(expected);
  });

  it('caps the length', () => {
    expect(sanitizeMessage('x'.repeat(1000))).toHaveLength(300);
  });
});
