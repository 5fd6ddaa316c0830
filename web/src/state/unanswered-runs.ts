import type { ThreadMessage } from '../api/wire-types.js';
import { replyOutcome, type RunSummary } from './run-outcome.js';

/**
 * The thread's messages, with a reply standing in for each run that ended
 * failed or cancelled without one: a run that could not even start (no model
 * key) on a server from before such runs stored their reason as a reply. The
 * reply carries the run's summary, so the failure and its run link show in
 * the thread instead of the prompt alone.
 */
export function withUnansweredRuns(
  messages: readonly ThreadMessage[],
  runs: Readonly<Record<string, RunSummary>>,
): ThreadMessage[] {
  const answered = new Set(
    messages.flatMap((m) => (m.role === 'assistant' && m.runId ? [m.runId] : [])),
  );
  const out: ThreadMessage[] = [];
  for (const message of messages) {
    out.push(message);
    const runId = message.role === 'user' ? message.runId : undefined;
    const run = runId ? runs[runId] : undefined;
    if (!runId || !run || answered.has(runId)) continue;
    const outcome = replyOutcome(run);
    if (outcome !== 'failed' && outcome !== 'cancelled') continue;
    answered.add(runId);
    out.push({
      id: `${message.id}:outcome`,
      threadId: message.threadId,
      seq: message.seq,
      role: 'assistant',
      content: run.summary || (outcome === 'failed' ? 'No reason was given.' : 'Cancelled.'),
      runId,
      createdAt: message.createdAt,
    });
  }
  return out;
}
