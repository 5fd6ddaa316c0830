import type { Action, Approval, ApprovalDecision, Run } from '../../store/types.js';
import type { ActionView, ApprovalView, RunResponse } from '../run-service-types.js';
import { previewOf } from '../../runtime/calls/preview-of.js';
import { visibleText } from '../../util/visible-text.js';
import type { ServerContext } from './server-context.js';
import { scopeAgents } from '../../runtime/subagents/child-pause.js';

const DECISIONS: ApprovalDecision[] = [
  'reject',
  'approve_once',
  'approve_and_always_allow_recipient',
];

/** An approval card: what will be done (the tool's preview), and why it waits. */
export async function approvalView(
  ctx: ServerContext,
  approval: Approval,
  threadId: string,
  runAgent?: string,
): Promise<ApprovalView> {
  const action = await ctx.store.actions.get(approval.actionId);
  return approvalCard(ctx, approval, threadId, action?.args, runAgent);
}

/** The card from what is already read: `args` of the call, undefined if its action is gone. */
export function approvalCard(
  ctx: ServerContext,
  approval: Approval,
  threadId: string,
  args: Record<string, unknown> | undefined,
  runAgent?: string,
): ApprovalView {
  const agents = scopeAgents(approval.callId);
  const tool = ctx.tools.find((t) => t.name === approval.tool);
  // Tools a run gets elsewhere (its MCP servers) are not in the pool: show the call itself.
  const preview = args
    ? previewOf(tool ?? { name: approval.tool }, args)
    : visibleText(approval.tool);
  return {
    approvalId: approval.id,
    runId: approval.runId,
    threadId,
    tool: approval.tool,
    preview,
    reason:
      ctx.policy.sideEffects === 'off'
        ? 'Side effects are off.'
        : `${approval.tool} changes the world outside this conversation, and no grant covers this call.`,
    ...(agents.length > 0
      ? { path: [...(runAgent ? [runAgent] : []), ...agents, approval.tool] }
      : {}),
    batchId: approval.batchId,
    createdAt: approval.createdAt,
    decisions: DECISIONS,
  };
}

/** The runtime spec's response for a run as it stands in the store. */
export async function runResponse(
  ctx: ServerContext,
  userId: string,
  run: Run,
  /** What the caller already knows of the run's actions and approvals (none were made). */
  known?: { actions: Action[]; approvals: Approval[] },
): Promise<RunResponse> {
  const [actions, approvals] = known
    ? [known.actions, known.approvals]
    : await Promise.all([
        ctx.store.actions.list(run.id),
        ctx.store.approvals.list(userId, { runId: run.id }),
      ]);
  const views: ActionView[] = actions.map((a) => {
    // The latest: an action asked about again has its stale approvals before the current one.
    const approval = approvals.findLast((p) => p.actionId === a.id);
    return {
      actionId: a.id,
      tool: a.tool,
      status: a.status,
      requiresApproval: a.requiresApproval,
      ...(approval ? { approvalId: approval.id } : {}),
    };
  });
  const pending = approvals.filter((a) => a.status === 'pending');
  return {
    ok: true,
    runId: run.id,
    threadId: run.threadId,
    status:
      run.status === 'completed' ||
      run.status === 'failed' ||
      run.status === 'cancelled' ||
      run.status === 'awaiting_confirmation'
        ? run.status
        : 'running',
    summary: run.summary,
    ...(run.status === 'failed' && run.errorCode ? { errorCode: run.errorCode } : {}),
    actions: views,
    approvals: await Promise.all(pending.map((a) => approvalView(ctx, a, run.threadId, run.agent))),
  };
}
