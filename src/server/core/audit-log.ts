import { buildAuditEntry, type AuditFacts } from '../../policy/audit-entry.js';
import type { Store } from '../../store/types.js';

/** Appends one audit entry (hashes and codes only) for a policy decision or an execution. */
export async function audit(
  store: Store,
  facts: Omit<AuditFacts, 'timestamps'>,
  signal?: AbortSignal,
): Promise<void> {
  const { timestamps: _t, ...entry } = buildAuditEntry({
    ...facts,
    timestamps: { decidedAt: new Date() },
  });
  await store.appendAudit(entry, signal);
}
