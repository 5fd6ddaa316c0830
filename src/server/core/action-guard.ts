import type { FunctionCallPart } from '../../model/types.js';
import { normalizeCall } from '../../policy/normalize-call.js';
import type { SideEffectOutcome } from '../../runtime/call-environment.js';
import type { Action } from '../../store/types.js';
import { canonicalHash } from '../../util/canonical-json.js';
import { audit } from './audit-log.js';
import type { ServerContext } from './server-context.js';

/**
 * Exactly once: a side effect runs only after its action moves to
 * `executing` (a compare-and-set), and the action leaves `executing` when it
 * ends. A crash in between leaves `executing`, which start-up marks failed,
 * never re-run.
 */
export function actionGuard(ctx: ServerContext, runId: string, model: () => string) {
  // The action a claim won, so settling it needs no second lookup.
  const claimed = new Map<string, Action>();
  const claim = async (call: FunctionCallPart): Promise<boolean> => {
    const existing = (await ctx.store.listActions(runId)).find((a) => a.callId === call.id);
    if (existing) {
      const moved = await ctx.store.transitionAction(existing.id, {
        from: 'awaiting_confirmation',
        to: 'executing',
      });
      if (moved.ok) claimed.set(call.id, moved.value);
      return moved.ok;
    }
    const normalized = normalizeCall(call.name, call.args);
    const action = await ctx.store.createAction({
      runId,
      callId: call.id,
      tool: call.name,
      args: call.args,
      inputHash: canonicalHash(normalized.ok ? normalized.args : call.args),
      status: 'executing',
      requiresApproval: false,
    });
    if (action.status !== 'executing') return false;
    claimed.set(call.id, action);
    return true;
  };
  const settle = async (call: FunctionCallPart, outcome: SideEffectOutcome): Promise<void> => {
    const action = claimed.get(call.id);
    if (!action) return;
    claimed.delete(call.id);
    await ctx.store.transitionAction(action.id, {
      from: 'executing',
      to: outcome.ok ? 'completed' : 'failed',
      ...(outcome.ok
        ? { output: outcome.output }
        : { errorCode: 'tool_execution_error', errorMessage: outcome.error }),
    });
    const normalized = normalizeCall(call.name, call.args);
    await audit(ctx.store, {
      runId,
      actionId: action.id,
      modelName: model(),
      toolName: call.name,
      args: normalized.ok ? normalized.args : call.args,
      decision: action.requiresApproval
        ? { mode: 'require_approval', reason: 'approved by a person' }
        : { mode: 'allow' },
      execution: outcome.ok
        ? { status: 'completed' }
        : { status: 'failed', errorCode: 'tool_execution_error' },
    });
  };
  return { claim, settle };
}
