import { ConflictError, NotFoundError } from '../../errors/cadre-error.js';
import { grantsForApproval } from '../../policy/grants.js';
import { normalizeCall } from '../../policy/normalize-call.js';
import { canonicalHash } from '../../util/canonical-json.js';
import type { ResolveRequest, RunHooks, RunResponse } from '../run-service-types.js';
import { attachRun, type Attacher } from './attach-run.js';
import { audit } from './audit-log.js';
import type { ServerContext } from './server-context.js';
import { runResponse } from './views.js';
import { scopeAgents } from '../../runtime/subagents/child-pause.js';

/**
 * Resolves one approval. The decision, the action's fate and, once every
 * approval of the batch is decided, the run's return to the queue are one
 * transaction (the second click gets 409); a worker resumes the run and the
 * request attaches to it. Leaving early never loses or cancels the approved call.
 */
export async function resolveApproval(
  ctx: ServerContext,
  attach: Attacher,
  request: ResolveRequest,
  hooks: RunHooks = {},
): Promise<RunResponse> {
  const approval = await ctx.store.approvals.get(request.approvalId, request.userId, {
    signal: hooks.signal,
  });
  if (!approval) throw new NotFoundError('No such approval.');
  if (approval.status !== 'pending') throw new ConflictError('This approval was already resolved.');
  const [run, action] = await Promise.all([
    ctx.store.runs.get(approval.runId, request.userId, { signal: hooks.signal }),
    ctx.store.actions.get(approval.actionId, { signal: hooks.signal }),
  ]);
  if (!run) throw new NotFoundError('No such run.');
  const normalized = normalizeCall(approval.tool, action?.args ?? {});
  // The card shows the action: an approval of anything but the call it is bound to is stale (never
  // run; asked again). The definition and tool class are checked where the call would run (resume).
  const matches =
    action !== undefined &&
    action.tool === approval.tool &&
    canonicalHash(normalized.ok ? normalized.args : action.args) === approval.inputHash;
  const approving = matches && request.decision !== 'reject';
  const resolved = await ctx.store.approvals.resolve(
    request.approvalId,
    {
      userId: request.userId,
      decision: request.decision,
      ...(request.feedback ? { feedback: request.feedback } : {}),
      matches,
      ...(approving && request.decision === 'approve_and_always_allow_recipient'
        ? { grants: earnedBy(approval.callId, grantsForApproval(approval.tool, normalized)) }
        : {}),
    },
    { signal: hooks.signal },
  );
  if (!resolved.ok) {
    if (resolved.reason === 'not_found') throw new NotFoundError('No such approval.');
    throw new ConflictError('This approval was already resolved.');
  }
  // The decision is stored; from here a disconnect only detaches. The trail names who decided.
  const by = request.userName || (await deciderName(ctx, request.userId, hooks.signal));
  await audit(ctx.store, {
    runId: run.id,
    ...(action ? { actionId: action.id } : {}),
    modelName: run.model,
    toolName: approval.tool,
    args: normalized.ok ? normalized.args : (action?.args ?? {}),
    decision: {
      mode: 'require_approval',
      reason: matches
        ? `decided by ${by}: ${request.decision}`
        : `the approval (${request.decision} by ${by}) no longer matches the call: not run, asking again`,
    },
    approvalId: approval.id,
    execution: approving
      ? { status: 'awaiting_confirmation' }
      : matches || request.decision === 'reject'
        ? { status: 'rejected', by }
        : { status: 'not_executed' },
  });
  if (!resolved.resumed) {
    const current = await ctx.store.runs.get(run.id, request.userId, { signal: hooks.signal });
    return runResponse(ctx, request.userId, current ?? run);
  }
  attach.wake();
  hooks.onStarted?.({ runId: run.id, threadId: run.threadId });
  const after = await attachRun(ctx, request.userId, run.id, {
    ...attach,
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    ...(hooks.onEvent ? { onEvent: hooks.onEvent, after: run.eventSeq } : {}),
  });
  return runResponse(ctx, request.userId, after);
}

/** A subagent's approval earns its grants for that subagent, never for the agents above it. */
function earnedBy<T extends { tool: string; recipient: string }>(
  callId: string,
  grants: readonly T[],
): Array<T & { agent?: string }> {
  const agent = scopeAgents(callId).at(-1);
  return agent ? grants.map((grant) => ({ ...grant, agent })) : [...grants];
}

/** The store reads users by name only; a user's tokens carry it (whoever decides signed in with one). */
async function deciderName(
  ctx: ServerContext,
  userId: string,
  signal?: AbortSignal,
): Promise<string> {
  return (await ctx.store.auth.listTokens({ userId }, { signal }))[0]?.userName ?? 'the approver';
}
