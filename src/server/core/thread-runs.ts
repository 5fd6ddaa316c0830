import type { CadreEvent } from '../../events/types.js';
import type { Approval, Store, ThreadMessage } from '../../store/types.js';
import type { DecisionView, ThreadRunView } from '../run-service-types.js';

/** The events a run's steps are drawn from; text and thoughts are already in the messages. */
const STEP_TYPES: ReadonlySet<string> = new Set([
  'tool_call',
  'tool_result',
  'approval_required',
  'approval_resolved',
  // A call run unasked under an "always allow" says whose rule let it through.
  'grant_applied',
  'subagent_started',
  'subagent_finished',
]);

/** Events read at a time; a long answer stores one event per chunk of text. */
const PAGE = 1000;

/** What the reads here need of the store. */
interface Reads {
  events: Pick<Store['events'], 'read'>;
  auth: Pick<Store['auth'], 'listTokens'>;
}

async function stepEvents(store: Reads, runId: string, signal?: AbortSignal) {
  const steps: CadreEvent[] = [];
  for (let after = 0; ;) {
    const page = await store.events.read(runId, { after, limit: PAGE }, { signal });
    for (const stored of page)
      if (STEP_TYPES.has(stored.type)) steps.push({ ...stored.event, seq: stored.seq });
    if (page.length < PAGE) return steps;
    after = page.at(-1)?.seq ?? after;
  }
}

/** The store reads users only by name; a user's tokens carry it (a decider always had one). */
async function nameOf(store: Reads, userId: string, signal?: AbortSignal): Promise<string> {
  return (await store.auth.listTokens({ userId }, { signal }))[0]?.userName ?? 'the owner';
}

function decisionView(approval: Approval, decidedBy: string): DecisionView | undefined {
  if (approval.status === 'pending' || !approval.decision || !approval.resolvedAt) return undefined;
  return {
    approvalId: approval.id,
    callId: approval.callId,
    tool: approval.tool,
    askedAt: approval.createdAt,
    decision: approval.decision,
    decidedBy,
    decidedAt: approval.resolvedAt,
    ...(approval.feedback ? { feedback: approval.feedback } : {}),
  };
}

/**
 * What each run named by the messages did: its steps and the decisions
 * taken on `approvals` (the thread's, every status), oldest run first.
 */
export async function threadRuns(
  store: Reads,
  userId: string,
  messages: readonly ThreadMessage[],
  approvals: readonly Approval[],
  signal?: AbortSignal,
): Promise<ThreadRunView[]> {
  const runIds = [...new Set(messages.flatMap((m) => (m.runId ? [m.runId] : [])))];
  const decided = approvals.some((a) => a.status !== 'pending');
  const decidedBy = decided ? await nameOf(store, userId, signal) : '';
  return Promise.all(
    runIds.map(async (runId) => ({
      runId,
      steps: await stepEvents(store, runId, signal),
      decisions: approvals
        .filter((a) => a.runId === runId)
        .flatMap((a) => decisionView(a, decidedBy) ?? []),
    })),
  );
}
