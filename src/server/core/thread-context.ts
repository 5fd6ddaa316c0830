import type { CadreEvent } from '../../events/types.js';
import type { Message } from '../../model/types.js';
import { SUMMARY_MARKER } from '../../runtime/compaction/split-conversation.js';
import type { Store, ThreadMessage } from '../../store/types.js';

/** Messages read from a thread to find what its summary does not cover yet. */
const THREAD_READ_LIMIT = 200;
/** Runs looked back through for the thread's latest summary (a thread is summarised every few runs). */
const RUNS_SEARCHED = 12;
/** A run's summary of its history comes before its first turn: among its first events. */
const EVENTS_SEARCHED = 50;

/** What a thread's next run sees: its summary as a note, then every message after it. */
export interface ThreadHistory {
  history: Message[];
  /** The thread seq each history message stands for (the note: the last seq it covers). */
  historySeqs: number[];
}

interface ThreadSummary {
  text: string;
  throughSeq: number;
}

/**
 * A thread's history for its next run: the rolling summary the runs keep
 * (stored as their `context_compacted` events), then the messages after
 * it verbatim. The run summarises again once they outgrow the window, so
 * nothing falls out of the conversation unsummarised.
 */
export async function threadHistory(
  store: Store,
  threadId: string,
  beforeSeq: number | undefined,
  signal?: AbortSignal,
): Promise<ThreadHistory> {
  const messages = (
    await store.threads.listMessages(threadId, { limit: THREAD_READ_LIMIT }, { signal })
  ).filter((m) => beforeSeq === undefined || m.seq < beforeSeq);
  const summary = await latestSummary(store, messages, signal);
  const kept = messages.filter(
    (m) => m.role !== 'system' && m.content.trim() && (!summary || m.seq > summary.throughSeq),
  );
  const history: Message[] = kept.map((m) => ({
    role: m.role === 'user' ? 'user' : 'model',
    parts: [{ kind: 'text', text: m.content }],
  }));
  const seqs = kept.map((m) => m.seq);
  if (!summary) return { history, historySeqs: seqs };
  return {
    history: [
      { role: 'user', parts: [{ kind: 'text', text: `${SUMMARY_MARKER}\n${summary.text}` }] },
      ...history,
    ],
    historySeqs: [summary.throughSeq, ...seqs],
  };
}

/**
 * The root's history summary with the thread seq it covers, for the store:
 * the run only knows how many of its history messages it folded.
 */
export function withThroughSeq(event: CadreEvent, historySeqs: readonly number[]): CadreEvent {
  if (event.type !== 'context_compacted' || event.depth !== 0 || event.data.scope !== 'history')
    return event;
  const folded = event.data.foldedMessages;
  const throughSeq = typeof folded === 'number' ? historySeqs[folded - 1] : undefined;
  return throughSeq === undefined ? event : { ...event, data: { ...event.data, throughSeq } };
}

async function latestSummary(
  store: Store,
  messages: readonly ThreadMessage[],
  signal: AbortSignal | undefined,
): Promise<ThreadSummary | undefined> {
  const runs = [...new Set(messages.flatMap((m) => (m.runId ? [m.runId] : [])).reverse())];
  for (const runId of runs.slice(0, RUNS_SEARCHED)) {
    const events = await store.events.read(runId, { limit: EVENTS_SEARCHED }, { signal });
    for (const { event } of events.toReversed()) {
      const { scope, summary, throughSeq } = event.data;
      if (
        event.type === 'context_compacted' &&
        event.depth === 0 &&
        scope === 'history' &&
        typeof summary === 'string' &&
        typeof throughSeq === 'number'
      )
        return { text: summary, throughSeq };
    }
  }
  return undefined;
}
