import type { FunctionCallPart } from '../../model/types.js';
import { normalizeCall } from '../../policy/normalize-call.js';
import type {
  ClaimOptions,
  ClaimResult,
  SideEffectOutcome,
} from '../../runtime/calls/call-environment.js';
import type { Action, ActionStatus } from '../../store/types.js';
import type { Transition } from '../../store/aggregates/transition.js';
import { INTERRUPTED_MESSAGE } from '../../store/operations/run-queue.js';
import { canonicalHash } from '../../util/canonical-json.js';
import { audit } from './audit-log.js';
import type { ServerContext } from './server-context.js';

/** What the model reads for an effect whose process died mid-call. */
const UNKNOWN_OUTCOME =
  'This action was interrupted when the process running it stopped: it may or may not have happened. Do not repeat it without asking the user.';

/**
 * Exactly once: a side effect runs only after its action moves to
 * `executing` (a compare-and-set), and the action leaves `executing` when it
 * ends. A call whose action already ended is answered from the record;
 * one found `interrupted` (its owner died mid-call) has an unknown outcome:
 * an at-most-once tool's is never run again, an exactly-once tool's (which
 * can be repeated safely) runs again. `abandoned()`: this process is handing the run
 * over, so an effect cut off now stays `executing` for the next owner to
 * record as interrupted.
 */
export function actionGuard(
  ctx: Pick<ServerContext, 'store'>,
  runId: string,
  /** The lease owner this process drives the run as: a claim holds only while it holds the run. */
  owner: string,
  model: () => string,
  abandoned: () => boolean,
  /** Before an action is written (a run not stored yet is stored first). */
  beforeAction: () => Promise<void> = () => Promise.resolve(),
) {
  // The action a claim won, so settling it needs no second lookup.
  const claimed = new Map<string, Action>();
  const claim = async (
    call: FunctionCallPart,
    options: ClaimOptions = {},
  ): Promise<ClaimResult> => {
    await beforeAction();
    const existing = (await ctx.store.actions.list(runId)).find((a) => a.callId === call.id);
    if (existing?.status === 'interrupted' && options.rerunUnknown) return rerun(existing);
    // A `planned` action never started: only the run's lease holder can move it, so it is ours
    // to run (one a stalled former owner created before it found the run lost).
    if (existing && existing.status !== 'awaiting_confirmation' && existing.status !== 'planned')
      return known(existing);
    let action = existing;
    if (!action) {
      const normalized = normalizeCall(call.name, call.args);
      // Created `planned`, then moved: of two racing creators only one wins the move.
      action = await ctx.store.actions.create({
        runId,
        callId: call.id,
        tool: call.name,
        args: call.args,
        inputHash: canonicalHash(normalized.ok ? normalized.args : call.args),
        status: 'planned',
        requiresApproval: false,
      });
    }
    const moved = await ctx.store.actions.transition(action.id, {
      from: ['awaiting_confirmation', 'planned'],
      to: 'executing',
      heldBy: owner,
    });
    if (!moved.ok) return refused(action, moved);
    claimed.set(call.id, moved.value);
    return { kind: 'run' };
  };
  // An exactly-once effect whose owner died mid-call runs again: repeating it changes nothing
  // more. Of two processes resuming the run, the compare-and-set lets one run it.
  const rerun = async (action: Action): Promise<ClaimResult> => {
    const moved = await ctx.store.actions.transition(action.id, {
      from: 'interrupted',
      to: 'executing',
      heldBy: owner,
    });
    if (!moved.ok) return refused(action, moved);
    claimed.set(action.callId, moved.value);
    return { kind: 'run' };
  };
  const settle = async (call: FunctionCallPart, outcome: SideEffectOutcome): Promise<void> => {
    const action = claimed.get(call.id);
    if (!action || abandoned()) return;
    claimed.delete(call.id);
    // Cut off mid-call (a cancel, the deadline): whether it happened is unknown.
    const cutOff = !outcome.ok && outcome.error === 'interrupted';
    const moved = await ctx.store.actions.transition(action.id, {
      from: 'executing',
      to: outcome.ok ? 'completed' : cutOff ? 'interrupted' : 'failed',
      ...(outcome.ok
        ? { output: outcome.output }
        : cutOff
          ? { errorCode: 'interrupted', errorMessage: INTERRUPTED_MESSAGE }
          : { errorCode: 'tool_execution_error', errorMessage: outcome.error }),
    });
    // Another process recorded it first (it took the run over): its record stands.
    if (!moved.ok) return;
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
        : cutOff
          ? { status: 'failed', errorCode: 'interrupted' }
          : { status: 'failed', errorCode: 'tool_execution_error' },
    });
  };
  return { claim, settle };
}

/** Why a claim's move to `executing` failed, as the call's answer; the effect is not run. */
function refused(
  action: Action,
  moved: Exclude<Transition<Action, ActionStatus>, { ok: true }>,
): ClaimResult {
  switch (moved.reason) {
    case 'not_found':
      return known({ ...action, status: 'failed' });
    case 'status_mismatch':
      return known({ ...action, status: moved.status });
    case 'not_held':
      // This process stalled past its lease and another took the run over: the new owner runs
      // the call (or has); nothing this process writes from now on is kept.
      return { kind: 'known', outcome: { ok: false, error: LOST_RUN } };
    default:
      return moved satisfies never;
  }
}

const LOST_RUN = 'This process no longer holds the run; the call was not run here.';

/** The answer for a call whose action already ended (or is being run by another process). */
function known(action: Pick<Action, 'tool' | 'status' | 'output' | 'errorMessage'>): ClaimResult {
  const error = (message: string): ClaimResult => ({
    kind: 'known',
    outcome: { ok: false, error: message },
  });
  switch (action.status) {
    case 'completed':
      return { kind: 'known', outcome: { ok: true, output: action.output ?? null } };
    case 'interrupted':
      return error(UNKNOWN_OUTCOME);
    case 'failed':
      return error(action.errorMessage ?? `${action.tool} failed.`);
    case 'rejected':
      return error(`This ${action.tool} call was refused; it was not run.`);
    case 'executing':
    case 'planned':
    case 'awaiting_confirmation':
      return error(`This ${action.tool} call was already handled; it was not run again.`);
    default:
      return action.status satisfies never;
  }
}
