// Test-only fixtures for the decide() tables.
import { expect } from 'vitest';
import { decide } from '../decide.js';
import { normalizeCall } from '../normalize-call.js';
import type {
  DecideOptions,
  Grant,
  NormalizedCall,
  PolicyDecision,
  PolicyRule,
  PolicyTool,
  Principal,
  TrustLevel,
} from '../types.js';

export const GMAIL: PolicyTool = {
  name: 'gmail_send',
  sideEffect: true,
  defaultApproval: 'require',
};
export const CAL: PolicyTool = {
  name: 'calendar_event_create',
  sideEffect: true,
  defaultApproval: 'require',
};
export const WRITE: PolicyTool = {
  name: 'write_file',
  sideEffect: true,
  defaultApproval: 'require',
};
export const AUTO: PolicyTool = { name: 'note_save', sideEffect: true, defaultApproval: 'auto' };
export const READ: PolicyTool = { name: 'read_file', sideEffect: false };

export const mail = (to: string | string[], extra: Record<string, unknown> = {}): NormalizedCall =>
  normalizeCall('gmail_send', { to, subject: 'Report', body: 'b', ...extra });
export const event = (attendees?: string[]): NormalizedCall =>
  normalizeCall('calendar_event_create', {
    title: 'Standup',
    start: '2026-12-01T09:00:00Z',
    end: '2026-12-01T09:15:00Z',
    ...(attendees ? { attendees } : {}),
  });
export const plain = (args: Record<string, unknown> = { path: 'a.txt' }): NormalizedCall =>
  normalizeCall('write_file', args);

export const user = (trust?: TrustLevel): Principal => ({
  userId: 'u1',
  ...(trust ? { trust } : {}),
});
export const grant = (tool: string, recipient: string): Grant => ({ tool, recipient });
export const ALLOW: PolicyDecision = { mode: 'allow' };
export const ask = (reason: string | RegExp) => ({
  mode: 'require_approval',
  reason: expect.stringMatching(reason),
});
export const deny = (reason: string | RegExp) => ({
  mode: 'deny',
  reason: expect.stringMatching(reason),
});

export interface Row {
  principal?: Principal;
  tool: PolicyTool;
  call: NormalizedCall;
  grants?: Grant[];
  rules?: PolicyRule[];
  options?: DecideOptions;
  expected: unknown;
}

export const run = (row: Row): PolicyDecision =>
  decide(
    row.principal ?? user(),
    row.tool,
    row.call,
    row.grants ?? [],
    row.rules ?? [],
    row.options ?? {},
  );
