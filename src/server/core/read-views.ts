import { NotFoundError } from '../../errors/cadre-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { RunService } from '../run-service-types.js';
import { agentViews } from './agent-views.js';
import type { ServerContext } from './server-context.js';
import { threadRuns } from './thread-runs.js';
import { approvalCard, approvalView } from './views.js';
import type { Approval } from '../../store/types.js';
import { scopeAgents } from '../../runtime/subagents/child-pause.js';

/** Rows per statement when every pending approval is wanted. */
const ALL_PAGE = 500;

type Reads = Pick<
  RunService,
  | 'pendingApprovals'
  | 'pendingApprovalPage'
  | 'listThreads'
  | 'getThread'
  | 'getRun'
  | 'readEvents'
  | 'listAgents'
  | 'audit'
  | 'verifyAudit'
>;

/** The read side: every lookup is scoped to the user, so another user's record is simply not there. */
export function readViews(ctx: ServerContext): Reads {
  const { store } = ctx;
  return {
    async pendingApprovals(userId, signal) {
      const all = [];
      let after: string | undefined;
      do {
        const page = await store.approvals.listPending(
          userId,
          { limit: ALL_PAGE, ...(after !== undefined ? { after } : {}) },
          { signal },
        );
        const agents = await runAgents(ctx, userId, page.approvals, signal);
        all.push(
          ...page.approvals.map((p) =>
            approvalCard(ctx, p.approval, p.threadId, p.args, agents.get(p.approval.runId)),
          ),
        );
        after = page.next;
      } while (after !== undefined);
      return all;
    },
    async pendingApprovalPage(userId, page, signal) {
      const found = await store.approvals.listPending(userId, page, { signal });
      const agents = await runAgents(ctx, userId, found.approvals, signal);
      return {
        approvals: found.approvals.map((p) =>
          approvalCard(ctx, p.approval, p.threadId, p.args, agents.get(p.approval.runId)),
        ),
        ...(found.next !== undefined ? { next: found.next } : {}),
      };
    },
    listThreads: (userId, signal) => store.threads.list(userId, {}, { signal }),
    async getThread(userId, threadId, signal) {
      const thread = await store.threads.get(threadId, userId, { signal });
      if (!thread) return undefined;
      const [messages, approvals] = await Promise.all([
        store.threads.listMessages(threadId, { limit: 200 }, { signal }),
        store.approvals.list(userId, { threadId }, { signal }),
      ]);
      const pending = approvals.filter((a) => a.status === 'pending');
      const agents = await runAgents(
        ctx,
        userId,
        pending.map((approval) => ({ approval })),
        signal,
      );
      const [pendingApprovals, runs] = await Promise.all([
        Promise.all(pending.map((a) => approvalView(ctx, a, threadId, agents.get(a.runId)))),
        threadRuns(store, userId, messages, approvals, signal),
      ]);
      return { thread, messages, pendingApprovals, runs };
    },
    async getRun(userId, runId, signal) {
      const run = await store.runs.get(runId, userId, { signal });
      if (!run) return undefined;
      const [actions, approvals, events] = await Promise.all([
        store.actions.list(runId, { signal }),
        store.approvals.list(userId, { runId }, { signal }),
        store.events.read(runId, {}, { signal }),
      ]);
      const { state: _s, job: _j, ...summary } = run;
      return { run: summary, actions, approvals, events };
    },
    async readEvents(userId, runId, after, signal) {
      if (!(await store.runs.get(runId, userId, { signal }))) return undefined;
      return store.events.read(runId, { after }, { signal });
    },
    listAgents: () => Promise.resolve(agentViews(ctx)),
    async audit(userId, runId, signal) {
      // The log spans every user: it is shown one run at a time, to the run's owner.
      if (!runId) throw new ValidationError([{ path: 'runId', message: 'is required' }]);
      if (!(await store.runs.get(runId, userId, { signal })))
        throw new NotFoundError('No such run.');
      return store.audit.list({ runId }, { signal });
    },
    verifyAudit: (signal) => store.audit.verify({ signal }),
  };
}

/**
 * The agent of each run with a subagent's approval, so its card's path starts
 * at the run's agent; approvals of a run's own calls need no lookup.
 */
async function runAgents(
  ctx: ServerContext,
  userId: string,
  pending: ReadonlyArray<{ approval: Approval }>,
  signal: AbortSignal | undefined,
): Promise<Map<string, string>> {
  const runIds = new Set(
    pending.filter((p) => scopeAgents(p.approval.callId).length > 0).map((p) => p.approval.runId),
  );
  const agents = new Map<string, string>();
  for (const runId of runIds) {
    const run = await ctx.store.runs.get(runId, userId, { signal });
    if (run) agents.set(runId, run.agent);
  }
  return agents;
}
