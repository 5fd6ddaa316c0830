import type { ThreadView } from '../api/wire-types.js';
import { isApprovalAsk } from './approval-ask.js';

/**
 * The thread's run that may still be going on without a page watching it:
 * its prompt has no reply yet, or it asked for approval and nothing is
 * pending any more (someone decided, so it resumed). Undefined when the
 * thread is at rest.
 */
export function runInFlight(view: ThreadView): string | undefined {
  const last = [...view.messages].reverse().find((m) => m.runId);
  if (!last?.runId) return undefined;
  if (last.role === 'user') return last.runId;
  const waiting = view.pendingApprovals.some((a) => a.runId === last.runId);
  return isApprovalAsk(last.content) && !waiting ? last.runId : undefined;
}
