import type { Grant, NormalizedCall } from './types.js';

/** Recipient of a grant that covers every recipient of a tool, and calls that have none. */
export const ANY_RECIPIENT = '*';

export interface GrantCoverage {
  covered: boolean;
  /** Recipients with no grant (0 when covered). */
  missing: number;
}

/**
 * Whether standing grants let this call run without asking. Every recipient
 * needs its own grant; a call with no recipients (or a tool without any)
 * needs the tool's `*` grant. Addresses compare case-insensitively.
 */
export function grantCoverage(
  tool: string,
  recipients: readonly string[] | undefined,
  grants: readonly Grant[],
): GrantCoverage {
  const granted = new Set(
    grants.filter((g) => g.tool === tool).map((g) => g.recipient.toLowerCase()),
  );
  if (granted.has(ANY_RECIPIENT)) return { covered: true, missing: 0 };
  if (recipients === undefined || recipients.length === 0) return { covered: false, missing: 0 };
  const missing = recipients.filter((r) => !granted.has(r.toLowerCase())).length;
  return { covered: missing === 0, missing };
}

/**
 * The grants an "approve and always allow recipient" decision stores: one per
 * recipient shown on the card, and nothing more. A call that could reach
 * people but names none (an event without attendees) stores no grant: a `*`
 * would let every later call reach anyone unasked. Only a tool that has no
 * recipients at all gets the tool's `*` grant.
 */
export function grantsForApproval(tool: string, call: NormalizedCall): Grant[] {
  if (!call.ok) return [];
  if (call.recipients === undefined) return [{ tool, recipient: ANY_RECIPIENT }];
  return [...new Set(call.recipients.map((r) => r.toLowerCase()))].map((recipient) => ({
    tool,
    recipient,
  }));
}
