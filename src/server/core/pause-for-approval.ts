import { normalizeCall } from '../../policy/normalize-call.js';
import type { GatePolicy } from '../../policy/tool-gate.js';
import type { ConfirmationHandler } from '../../contracts/confirmation.js';
import { canonicalHash } from '../../util/canonical-json.js';
import { audit } from './audit-log.js';
import type { ServerContext } from './server-context.js';

/** A call the gate sent to a person: its action is stored, the approval is made when the turn pauses. */
export interface WaitingCall {
  callId: string;
  actionId: string;
  tool: string;
  inputHash: string;
  /** The content hash of the definition that asked (absent: the run's). */
  definitionHash?: string;
  /** The tool's side-effect class when asked: the approval is bound to it. */
  toolClass?: string;
}

/**
 * The server's gate policy for one user's run: the configured rules, trust
 * and side-effect switch, the user's grants from the store, and an audit
 * entry for every refusal. The gate applies it to every call.
 */
export function serverGatePolicy(
  ctx: ServerContext,
  userId: string,
  runId: string,
  model: () => string,
  /** Before an audit entry names the run (a run not stored yet is stored first). */
  beforeRecord: () => Promise<void> = () => Promise.resolve(),
): GatePolicy {
  return {
    rules: ctx.policy.rules,
    sideEffects: ctx.policy.sideEffects,
    ...(ctx.policy.trust ? { trust: ctx.policy.trust } : {}),
    principal: userId,
    // Each grant keeps its agent (the gate applies only the calling agent's) and its origin.
    grants: (signal) => ctx.store.grants.list(userId, { signal }),
    onRefused: async (call, decision, signal) => {
      await beforeRecord();
      const normalized = normalizeCall(call.tool.name, call.args);
      await audit(
        ctx.store,
        {
          runId,
          modelName: model(),
          toolName: call.tool.name,
          args: normalized.ok ? normalized.args : call.args,
          decision,
          execution: { status: 'not_executed' },
        },
        signal,
      );
    },
  };
}

/**
 * The server's confirmation handler: it only asks a person, by pausing the
 * call as an action awaiting confirmation (the gate already decided that a
 * person must be asked). A subagent's call pauses the same way, under its
 * scoped call id, and the whole run waits; only a subagent below code that
 * cannot be kept paused is told instead.
 */
export function pauseForApproval(
  ctx: ServerContext,
  runId: string,
  model: () => string,
  paused: WaitingCall[],
  /** Before an action or audit entry names the run (a run not stored yet is stored first). */
  beforeAction: () => Promise<void> = () => Promise.resolve(),
): ConfirmationHandler {
  return async (request, signal) => {
    const normalized = normalizeCall(request.tool, request.args);
    const args = normalized.ok ? normalized.args : request.args;
    // Above this subagent is code that cannot be kept paused (a code agent run to the end): it is told instead.
    if (request.execution.depth > 0 && request.canPause === false) {
      await beforeAction();
      await audit(
        ctx.store,
        {
          runId,
          modelName: model(),
          toolName: request.tool,
          args,
          decision: { mode: 'require_approval', reason: request.reason },
          execution: { status: 'not_executed' },
        },
        signal,
      );
      return {
        kind: 'reject',
        feedback: `${request.reason} This subagent cannot wait for approval here; report what you would do instead.`,
      };
    }
    const inputHash = canonicalHash(args);
    await beforeAction();
    const action = await ctx.store.actions.create(
      {
        runId,
        callId: request.callId,
        tool: request.tool,
        args: request.args,
        inputHash,
        status: 'awaiting_confirmation',
        requiresApproval: true,
      },
      { signal },
    );
    paused.push({
      callId: request.callId,
      actionId: action.id,
      tool: request.tool,
      inputHash,
      ...(request.binding
        ? { definitionHash: request.binding.definitionHash, toolClass: request.binding.toolClass }
        : {}),
    });
    await audit(
      ctx.store,
      {
        runId,
        actionId: action.id,
        modelName: model(),
        toolName: request.tool,
        args,
        decision: { mode: 'require_approval', reason: request.reason },
        execution: { status: 'awaiting_confirmation' },
      },
      signal,
    );
    return { kind: 'pause' };
  };
}
