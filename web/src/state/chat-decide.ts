import { isConflict } from '../api/api-error.js';
import type { ApprovalDecision, ApprovalView } from '../api/wire-types.js';
import { CONFLICT_TEXT, type ChatCore } from './chat-core.js';
import { detached, keepTrace, streamRun } from './chat-stream.js';
import { loadThread } from './chat-thread-load.js';
import { feedbackKey, writeDraft } from './drafts.js';
import { failureText } from './failure-text.js';
import { emptyTrace, seedStep, type RunTrace } from './run-trace.js';
import { markDecided } from './stored-trace.js';

/** Decides an approval and streams the run it resumes. */
export async function decideApproval(
  core: ChatCore,
  approval: ApprovalView,
  decision: ApprovalDecision,
  feedback = '',
): Promise<void> {
  if (core.disposed) return;
  core.set({ notice: undefined, decisionError: undefined, deciding: approval.approvalId });
  // This page follows the resumed run itself.
  core.attached = approval.runId;
  const before = core.getSnapshot().traces[approval.runId];
  const body = {
    approvalId: approval.approvalId,
    decision,
    ...(feedback.trim() ? { feedback: feedback.trim() } : {}),
  };
  const mine = core.generation;
  const signal = core.streamSignal();
  const start = {
    approvalId: approval.approvalId,
    trace: resumedTrace(approval, before),
    done: false,
  };
  const lines = core.api.resolveStream(body, signal);
  const outcome = await streamRun(core, lines, start, signal, (stored) => {
    // Stored: the card closes now, and the thread shows who decided; the run streams on.
    if (core.storage) writeDraft(core.storage, feedbackKey(approval.approvalId), '');
    core.set({
      deciding: undefined,
      decided: new Set(core.state.decided).add(approval.approvalId),
    });
    void loadThread(core);
    return markDecided(stored, approval, decision);
  });
  if (core.state.deciding === approval.approvalId) core.set({ deciding: undefined });
  if (outcome.aborted) return;
  core.context.onThreadsChanged?.();
  if (mine !== core.generation) return;
  if (!outcome.accepted) return notTaken(core, approval, outcome.failure);
  if (outcome.failure !== undefined) return detached(core, outcome.failure);
  if (!outcome.trace.error) keepTrace(core, approval.runId, outcome.trace, before);
  await loadThread(core);
}

/** Steps carry over so the waiting call turns into "done" in place; text starts afresh. */
function resumedTrace(approval: ApprovalView, before: RunTrace | undefined): RunTrace {
  const { result: _result, error: _error, ...kept } = before ?? emptyTrace(approval.runId);
  const base = { ...kept, text: '', thoughts: '' };
  return seedStep(base, approval.approvalId, approval.tool, approval.preview);
}

/** The decision was not stored: decided elsewhere already, or it failed. */
async function notTaken(core: ChatCore, approval: ApprovalView, failure: unknown): Promise<void> {
  core.attached = undefined;
  if (isConflict(failure)) {
    core.set({ live: undefined, notice: { kind: 'info', text: CONFLICT_TEXT } });
    await loadThread(core);
  } else {
    const text = failureText(failure, 'decide').text;
    core.set({ live: undefined, decisionError: { approvalId: approval.approvalId, text } });
  }
}
