import { ConflictError, NotFoundError } from '../../errors/cadre-error.js';
import { grantsForApproval } from '../../policy/grants.js';
import { normalizeCall } from '../../policy/normalize-call.js';
import type { ConfirmationDecision } from '../../runtime/confirmation.js';
import type { Approval } from '../../store/types.js';
import { canonicalHash } from '../../util/canonical-json.js';
import type { ResolveRequest, RunHooks, RunResponse } from '../run-service-types.js';
import { audit } from './audit-log.js';
import { driveRun } from './drive-run.js';
import { pinnedDefinition } from './pick-definition.js';
import type { ServerContext } from './server-context.js';
import { runResponse } from './views.js';

/**
 * Resolves one approval (compare-and-set on `pending`: the second click gets
 * 409). When every approval of its batch is decided, the run resumes; taking
 * the run is another compare-and-set, so two processes never resume it twice.
 */
export async function resolveApproval(
  ctx: ServerContext,
  request: ResolveRequest,
  hooks: RunHooks = {},
): Promise<RunResponse> {
  const resolved = await ctx.store.resolveApproval(
    {
      approvalId: request.approvalId,
      userId: request.userId,
      decision: request.decision,
      ...(request.feedback ? { feedback: request.feedback } : {}),
    },
    hooks.signal,
  );
  if (!resolved.ok) {
    if (resolved.reason === 'not_found') throw new NotFoundError('No such approval.');
    throw new ConflictError('This approval was already resolved.');
  }
  const approval = resolved.approval;
  const run = await ctx.store.getRun(request.userId, approval.runId, hooks.signal);
  if (!run) throw new NotFoundError('No such run.');
  const action = await ctx.store.getAction(approval.actionId, hooks.signal);
  const normalized = normalizeCall(approval.tool, action?.args ?? {});
  // Bound to what was approved: other arguments or another definition fail closed.
  const matches =
    action !== undefined &&
    canonicalHash(normalized.ok ? normalized.args : action.args) === approval.inputHash &&
    approval.definitionHash === run.definitionHash;
  const approved = matches && request.decision !== 'reject';
  if (approved && request.decision === 'approve_and_always_allow_recipient') {
    for (const grant of grantsForApproval(approval.tool, normalized)) {
      await ctx.store.addGrant(
        { userId: request.userId, tool: grant.tool, recipient: grant.recipient },
        hooks.signal,
      );
    }
  }
  if (!approved && action)
    await ctx.store.transitionAction(
      action.id,
      { from: 'awaiting_confirmation', to: 'rejected' },
      hooks.signal,
    );
  await audit(ctx.store, {
    runId: run.id,
    ...(action ? { actionId: action.id } : {}),
    modelName: run.model,
    toolName: approval.tool,
    args: normalized.ok ? normalized.args : (action?.args ?? {}),
    decision: {
      mode: 'require_approval',
      reason: matches ? `decided: ${request.decision}` : 'the approval no longer matches the call',
    },
    approvalId: approval.id,
    execution: approved ? { status: 'awaiting_confirmation' } : { status: 'rejected' },
  });

  const batch = await ctx.store.listApprovals(
    request.userId,
    { batchId: approval.batchId },
    hooks.signal,
  );
  if (batch.some((a) => a.status === 'pending')) return runResponse(ctx, request.userId, run);
  const taken = await ctx.store.updateRun(
    run.id,
    { status: 'executing' },
    { expectedStatus: 'awaiting_confirmation' },
    hooks.signal,
  );
  if (!taken.ok) return runResponse(ctx, request.userId, run); // another request is resuming it
  const definition = await pinnedDefinition(ctx, taken.value);
  const decisions = Object.fromEntries(
    batch.map((a) => [a.callId, decisionFor(a, a.id === approval.id ? matches : true)]),
  );
  return driveRun(
    ctx,
    request.userId,
    taken.value,
    definition,
    { kind: 'resume', decisions },
    hooks,
  );
}

function decisionFor(approval: Approval, matches: boolean): ConfirmationDecision {
  if (!matches)
    return {
      kind: 'reject',
      feedback: 'The approval no longer matches this call, so it was not run.',
    };
  if (approval.decision === 'reject')
    return approval.feedback ? { kind: 'reject', feedback: approval.feedback } : { kind: 'reject' };
  return { kind: 'approve' };
}
