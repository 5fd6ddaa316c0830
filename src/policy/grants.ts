import type { Grant, NormalizedCall } from './types.js';

/** Recipient of a grant that covers every recipient of a tool, and calls that have none. */
export const ANY_RECIPIENT = '*';

export interface GrantCoverage {
  covered: boolean;
  /** Recipients with no grant (0 when covered). */
  missing: number;
  /** The grants that cover the call (empty unless covered). */
  by: readonly Grant[];
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
  const granted = new Map<string, Grant>();
  for (const g of grants) if (g.tool === tool) granted.set(g.recipient.toLowerCase(), g);
  const any = granted.get(ANY_RECIPIENT);
  if (any) return { covered: true, missing: 0, by: [any] };
  if (recipients === undefined || recipients.length === 0)
    return { covered: false, missing: 0, by: [] };
  const by = new Set<Grant>();
  let missing = 0;
  for (const r of recipients) {
    const g = granted.get(r.toLowerCase());
    if (g) by.add(g);
    else missing += 1;
  }
  return missing === 0
    ? { covered: true, missing, by: [...by] }
    : { covered: false, missing, by: [] };
}

/** The grants an agent may use: its own, and those that name no agent. */
export function grantsForAgent(grants: readonly Grant[], agent: string | undefined): Grant[] {
  return grants.filter((g) => g.agent === undefined || g.agent === agent);
}

/**
 * What a step that ran under grants says, e.g. "allowed by your rule for
 * ana@example.com, set 02:05 UTC" (the page shows the time in the reader's zone).
 */
export function describeGrantUse(grants: readonly Grant[]): string {
  const whom = grants.map((g) =>
    g.recipient === ANY_RECIPIENT ? `any recipient of ${g.tool}` : g.recipient,
  );
  const times = grants.flatMap((g) => (g.createdAt ? [g.createdAt] : [])).sort();
  const latest = times.at(-1);
  const set = latest ? `, set ${latest.slice(11, 16)} UTC` : '';
  return `allowed by your rule${grants.length === 1 ? '' : 's'} for ${whom.join(', ')}${set}`;
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
