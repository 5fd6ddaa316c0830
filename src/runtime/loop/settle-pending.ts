import { ConfigError, isAbortError } from '../../errors/cadre-error.js';
import { applyDecision, askPerson, execute } from '../calls/approvals.js';
import { bindingOf, staleReason } from '../calls/approval-binding.js';
import type { FunctionCallPart } from '../../model/types.js';
import type { Tool } from '../../tools/types.js';
import { decisionsFor } from '../subagents/child-pause.js';
import type { ApprovalBinding, PausedChild } from '../../contracts/run-state.js';
import type { CallEnvironment } from '../calls/call-environment.js';
import { callerAborted, turnSignal } from './either-signal.js';
import { answered, type CallOutcome } from '../calls/call-environment.js';
import { errorResponse } from '../calls/call-responses.js';
import type { ConfirmationDecision, ResumeDecision } from '../../contracts/confirmation.js';
import type { LoopContext } from './loop-context.js';
import type { Stop } from './stop.js';
import { afterCalls, callEnvironment, pausedTurn } from './take-turn.js';
import { reportResult } from '../calls/tool-calls.js';
import { observed } from '../calls/full-gate.js';

/**
 * Completes a paused turn with the people's decisions: approved calls run
 * (each claimed first, so a second resume cannot run it again), rejected
 * ones answer with the feedback; then the turn's answers go to the model.
 */
export async function settlePendingTurn(
  ctx: LoopContext,
  decisions: Readonly<Record<string, ResumeDecision>>,
): Promise<Stop | undefined> {
  const pending = ctx.state.pendingTurn;
  if (!pending) return undefined;
  const signal = turnSignal(ctx, ctx.deadline.signal);
  const env = callEnvironment(ctx, new Set(ctx.registry.names()), signal);
  const outcomes: CallOutcome[] = [];
  try {
    for (const [index, call] of pending.calls.entries()) {
      const known = pending.responses[index];
      if (known) {
        outcomes.push(answered(known));
        continue;
      }
      const tool = ctx.registry.get(call.name);
      const child = pending.children?.[call.id];
      if (tool && child) {
        // The call that started a paused subagent runs again, and its spawn resumes that child.
        const started = performance.now();
        const resumed = resumingEnv(ctx, env, child, decisions);
        const outcome = await observed(call, tool, resumed, () => execute(call, tool, resumed));
        if (outcome.kind === 'answered')
          reportResult(call, outcome, performance.now() - started, env);
        outcomes.push(outcome);
        continue;
      }
      const decision = decisions[call.id];
      if (!tool || !decision) {
        outcomes.push(
          answered(errorResponse(call, `${call.name} is no longer available to this agent.`)),
        );
        continue;
      }
      if (decision.kind === 'pause')
        throw new ConfigError(`A resumed call needs a decision; got "pause" for ${call.id}.`);
      const started = performance.now();
      // The gate ran when the call paused; its observers hear how the decided call ends.
      const outcome = await observed(call, tool, env, async () =>
        applyDecision(call, tool, await bound(call, tool, decision, pending.bindings, env), env),
      );
      if (outcome.kind === 'answered')
        reportResult(call, outcome, performance.now() - started, env);
      outcomes.push(outcome);
    }
  } catch (error) {
    if (!isAbortError(error) && !signal.aborted) throw error;
    // Every call of the turn gets an answer: the known ones, and "interrupted" for the rest.
    const parts = pending.calls.map((call, index) => {
      const done = outcomes[index];
      return done?.kind === 'answered'
        ? done.response
        : (pending.responses[index] ?? errorResponse(call, 'Interrupted before it ran.'));
    });
    ctx.state.messages.push({ role: 'user', parts });
    delete ctx.state.pendingTurn;
    return callerAborted(ctx) ? { reason: 'ABORTED' } : { reason: 'TIMEOUT' };
  }
  if (outcomes.some((o) => o.kind === 'waiting')) {
    // A resumed subagent asks again: the turn stays paused with the answers known so far.
    ctx.state.pendingTurn = pausedTurn(pending.calls, outcomes);
    return { reason: 'PAUSED' };
  }
  delete ctx.state.pendingTurn;
  return afterCalls(ctx, outcomes, false);
}

/**
 * Approvals are bound to what was approved: an approval runs the call only if
 * the tool, its arguments, the definition and the tool's side-effect class are
 * still what the person was shown (the decision's binding, if it carries one,
 * and the one stored when the call paused). Otherwise it is refused and the
 * person is asked again about the call as it is now; nothing runs meanwhile.
 */
async function bound(
  call: FunctionCallPart,
  tool: Tool,
  decision: ResumeDecision,
  bindings: Readonly<Record<string, ApprovalBinding>> | undefined,
  env: CallEnvironment,
): Promise<ConfirmationDecision> {
  let reason: string | undefined;
  switch (decision.kind) {
    case 'reject':
    case 'pause':
    case 'unattended':
      return decision;
    case 'ask_again':
      reason = decision.reason;
      break;
    case 'approve':
    case 'approve_always':
      reason = staleReason(bindingOf(call, tool, await env.definitionHash()), [
        decision.binding,
        bindings?.[call.id],
      ]);
      if (reason === undefined) return decision;
      break;
    default:
      return decision satisfies never;
  }
  env.emit({
    type: 'approval_resolved',
    message: `${tool.name}: the approval no longer holds (${reason}); asking again`,
    data: { callId: call.id, tool: tool.name, decision: 'stale', reason },
  });
  return askPerson(
    call,
    tool,
    env,
    `The earlier approval no longer holds (${reason}): asking again about the call as it is now.`,
  );
}

/** The call's environment with a spawn that continues the paused child instead of starting one. */
function resumingEnv(
  ctx: LoopContext,
  env: CallEnvironment,
  child: PausedChild,
  decisions: Readonly<Record<string, ResumeDecision>>,
): CallEnvironment {
  const resume = ctx.resumeSpawn;
  if (!resume) return env;
  return {
    ...env,
    toolContext: {
      ...env.toolContext,
      spawn: (request) =>
        resume(request, { child, decisions: decisionsFor(child.scope, decisions) }),
    },
  };
}
