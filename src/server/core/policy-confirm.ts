import { decide } from '../../policy/decide.js';
import { normalizeCall } from '../../policy/normalize-call.js';
import type { PolicyDecision } from '../../policy/types.js';
import type { ConfirmationHandler } from '../../runtime/confirmation.js';
import { canonicalHash } from '../../util/canonical-json.js';
import { audit } from './audit-log.js';
import type { ServerContext } from './server-context.js';

/** A call the policy sent to a person: its action is stored, the approval is made when the turn parks. */
export interface ParkedCall {
  callId: string;
  actionId: string;
  tool: string;
  inputHash: string;
}

/**
 * The server's confirmation handler: normalise (unsafe arguments are refused
 * before any approval step), ask the policy, then allow, refuse with the
 * reason, or park the call as an action awaiting confirmation.
 */
export function policyConfirm(
  ctx: ServerContext,
  userId: string,
  runId: string,
  model: () => string,
  parked: ParkedCall[],
): ConfirmationHandler {
  return async (request, signal) => {
    const tool = ctx.tools.find((t) => t.name === request.tool);
    const normalized = normalizeCall(request.tool, request.args);
    const inputHash = canonicalHash(normalized.ok ? normalized.args : request.args);
    const grants = (await ctx.store.listGrants(userId, signal)).map((g) => ({
      tool: g.tool,
      recipient: g.recipient,
    }));
    const decision = decide(
      { userId, ...(ctx.policy.trust ? { trust: ctx.policy.trust } : {}) },
      {
        name: request.tool,
        sideEffect: tool?.sideEffect ?? true,
        ...(tool?.defaultApproval ? { defaultApproval: tool.defaultApproval } : {}),
      },
      normalized,
      grants,
      ctx.policy.rules,
      { sideEffects: ctx.policy.sideEffects },
    );
    const auditRefusal = (refused: PolicyDecision): Promise<void> =>
      audit(
        ctx.store,
        {
          runId,
          modelName: model(),
          toolName: request.tool,
          args: normalized.ok ? normalized.args : request.args,
          decision: refused,
          execution: { status: 'not_executed' },
        },
        signal,
      );
    switch (decision.mode) {
      case 'allow':
        return { kind: 'approve' };
      case 'deny':
        await auditRefusal(decision);
        return { kind: 'reject', feedback: `Blocked by policy: ${decision.reason}` };
      case 'require_approval': {
        // A subagent cannot pause its parent's turn: it is told, and the call is not run.
        if (request.execution.depth > 0) {
          await auditRefusal(decision);
          return {
            kind: 'reject',
            feedback: `${decision.reason} A subagent cannot wait for approval; report what you would do instead.`,
          };
        }
        const action = await ctx.store.createAction(
          {
            runId,
            callId: request.callId,
            tool: request.tool,
            args: request.args,
            inputHash,
            status: 'awaiting_confirmation',
            requiresApproval: true,
          },
          signal,
        );
        parked.push({ callId: request.callId, actionId: action.id, tool: request.tool, inputHash });
        await audit(
          ctx.store,
          {
            runId,
            actionId: action.id,
            modelName: model(),
            toolName: request.tool,
            args: normalized.ok ? normalized.args : request.args,
            decision,
            execution: { status: 'awaiting_confirmation' },
          },
          signal,
        );
        return { kind: 'defer' };
      }
      default:
        return decision satisfies never;
    }
  };
}
