import { buildAuditEntry, type AuditFacts } from '../../policy/audit-entry.js';
import { normalizeCall } from '../../policy/normalize-call.js';
import type { Action, Run, Store } from '../../store/types.js';

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
  await store.audit.append(entry, { signal });
}

/**
 * The audit entry of a call whose effect never finished under this run's
 * watch (its owner died mid-call, or the run failed before it ran): failed,
 * with why, and what was decided about it.
 */
export function auditCutOff(
  store: Store,
  run: Pick<Run, 'id' | 'model'>,
  action: Pick<Action, 'id' | 'tool' | 'args' | 'requiresApproval'>,
  cut: { errorCode: 'interrupted' | 'not_run'; approvalReason: string },
  signal?: AbortSignal,
): Promise<void> {
  const normalized = normalizeCall(action.tool, action.args);
  return audit(
    store,
    {
      runId: run.id,
      actionId: action.id,
      modelName: run.model,
      toolName: action.tool,
      args: normalized.ok ? normalized.args : action.args,
      decision: action.requiresApproval
        ? { mode: 'require_approval', reason: cut.approvalReason }
        : { mode: 'allow' },
      execution: { status: 'failed', errorCode: cut.errorCode },
    },
    signal,
  );
}
