import type {
  ApprovalDecision,
  ApprovalView,
  DecisionView,
  ThreadMessage,
  ThreadRunView,
} from '../api/wire-types.js';
import { isApprovalAsk } from './approval-ask.js';
import { applyLine, emptyTrace, type RunTrace, type ToolStep } from './run-trace.js';

function withDecision(step: ToolStep, decisions: readonly DecisionView[]): ToolStep {
  const decision = decisions.find((d) => d.callId === step.key);
  if (!decision) return step;
  // Decided, but the resumed run has not stored its own events yet.
  const state =
    step.state === 'awaiting_approval'
      ? decision.decision === 'reject'
        ? 'rejected'
        : 'approved'
      : step.state;
  return { ...step, state, decision };
}

/** A stored run's steps, folded exactly as the live stream's are, with who decided what. */
export function storedTrace(run: ThreadRunView): RunTrace {
  const folded = run.steps.reduce(
    (trace, event) => applyLine(trace, { type: 'event', event }),
    emptyTrace(run.runId),
  );
  return { ...folded, steps: folded.steps.map((s) => withDecision(s, run.decisions)) };
}

/**
 * The traces the chat draws under each run's last message: the stored
 * steps (they survive a reload), with the thoughts this page saw streaming
 * (those are not stored); a run the server says nothing of keeps its streamed trace.
 */
export function mergeTraces(
  runs: readonly ThreadRunView[] | undefined,
  streamed: Record<string, RunTrace>,
): Record<string, RunTrace> {
  const merged = { ...streamed };
  for (const run of runs ?? [])
    merged[run.runId] = { ...storedTrace(run), thoughts: streamed[run.runId]?.thoughts ?? '' };
  return merged;
}

/**
 * The decisions taken on what each "I need your approval" message asked:
 * an approval is stored with the message that asks for it (one transaction,
 * one time), so each goes to its run's first such message not older than it.
 */
export function decisionsByMessage(
  messages: readonly ThreadMessage[],
  runs: readonly ThreadRunView[] | undefined,
): Map<string, DecisionView[]> {
  const byMessage = new Map<string, DecisionView[]>();
  for (const run of runs ?? []) {
    const asks = messages.filter(
      (m) => m.runId === run.runId && m.role === 'assistant' && isApprovalAsk(m.content),
    );
    for (const decision of run.decisions) {
      const ask = asks.find((m) => m.createdAt >= decision.askedAt);
      if (ask) byMessage.set(ask.id, [...(byMessage.get(ask.id) ?? []), decision]);
    }
  }
  return byMessage;
}

/**
 * The waiting step of a card whose decision the server has just stored:
 * approved or rejected now, before the resumed run writes its own events.
 */
export function markDecided(
  trace: RunTrace,
  approval: Pick<ApprovalView, 'approvalId' | 'tool'>,
  decision: ApprovalDecision,
): RunTrace {
  const waiting = (s: ToolStep) => s.tool === approval.tool && s.state === 'awaiting_approval';
  const index = trace.steps.findIndex((s) => s.key === approval.approvalId && waiting(s));
  const at = index >= 0 ? index : trace.steps.findLastIndex(waiting);
  if (at < 0) return trace;
  const state = decision === 'reject' ? 'rejected' : 'approved';
  return { ...trace, steps: trace.steps.map((s, i) => (i === at ? { ...s, state } : s)) };
}
