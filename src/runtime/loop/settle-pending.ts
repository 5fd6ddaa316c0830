import { ConfigError, isAbortError } from '../../errors/cadre-error.js';
import { applyDecision, execute } from '../calls/approvals.js';
import { decisionsFor } from '../subagents/child-pause.js';
import type { SuspendedChild } from '../../contracts/run-state.js';
import type { CallEnvironment } from '../calls/call-environment.js';
import { eitherSignal } from './either-signal.js';
import { answered, type CallOutcome } from '../calls/call-environment.js';
import { errorResponse } from '../calls/call-responses.js';
import type { ConfirmationDecision } from '../calls/confirmation.js';
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
  decisions: Readonly<Record<string, ConfirmationDecision>>,
): Promise<Stop | undefined> {
  const pending = ctx.state.pendingTurn;
  if (!pending) return undefined;
  const signal = eitherSignal(ctx.callerSignal, ctx.deadline.signal, ctx.cancellable);
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
      const outcome = await observed(call, tool, env, () =>
        applyDecision(call, tool, decision, env),
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
    return ctx.callerSignal.aborted ? { reason: 'ABORTED' } : { reason: 'TIMEOUT' };
  }
  if (outcomes.some((o) => o.kind === 'waiting')) {
    // A resumed subagent asks again: the turn stays paused with the answers known so far.
    ctx.state.pendingTurn = pausedTurn(pending.calls, outcomes);
    return { reason: 'PAUSED' };
  }
  delete ctx.state.pendingTurn;
  return afterCalls(ctx, outcomes, false);
}

/** The call's environment with a spawn that continues the paused child instead of starting one. */
function resumingEnv(
  ctx: LoopContext,
  env: CallEnvironment,
  child: SuspendedChild,
  decisions: Readonly<Record<string, ConfirmationDecision>>,
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
