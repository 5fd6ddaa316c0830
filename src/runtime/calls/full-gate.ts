import type { FunctionCallPart } from '../../model/types.js';
import { runAfterInterceptors, type ToolCallOutcome } from '../../policy/interceptors.js';
import { DEFAULT_GATE_POLICY, passGate } from '../../policy/tool-gate.js';
import type { PolicyDecision } from '../../policy/types.js';
import type { Tool } from '../../tools/types.js';
import { applyDecision, askPerson, execute } from './approvals.js';
import { grantAppliedEvent } from './grant-applied.js';
import { answered, type CallEnvironment, type CallOutcome } from './call-environment.js';
import { errorResponse } from './call-responses.js';

/**
 * The gate's whole path (rules, trust, kill switch, grants, interceptors,
 * the person): loaded by the first call that needs more than a plain read.
 */
export async function gated(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
): Promise<CallOutcome> {
  if (tool.load && env.patterns?.[tool.name]?.length) await tool.load();
  // Most tools have no floor: not awaiting one saves a tick per call.
  const floor = tool.approvalFloor ? await tool.approvalFloor(env.toolContext.signal) : undefined;
  const decision = await passGate(
    env.policy ?? DEFAULT_GATE_POLICY,
    env.interceptors ?? [],
    {
      runId: env.state.runId,
      callId: call.id,
      tool: {
        name: tool.name,
        sideEffect: tool.sideEffect,
        ...(tool.defaultApproval ? { defaultApproval: tool.defaultApproval } : {}),
        ...(floor === undefined ? {} : { approvalFloor: floor }),
      },
      args: call.args,
      agent: env.state.agent,
      ...outsidePatterns(call, tool, env),
    },
    env.state.alwaysApproved,
    env.toolContext.signal,
  );
  if (decision.mode === 'allow' && decision.grants?.length)
    env.emit(grantAppliedEvent(call, decision.grants));
  if (decision.mode === 'deny') {
    const outcome = answered(errorResponse(call, `Refused: ${decision.reason}`));
    await observe(call, tool, env, { status: 'denied', reason: decision.reason });
    return outcome;
  }
  return observed(call, tool, env, () => decided(call, tool, env, decision));
}

async function decided(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
  decision: Exclude<PolicyDecision, { mode: 'deny' }>,
): Promise<CallOutcome> {
  const asked =
    decision.mode === 'require_approval'
      ? await askPerson(call, tool, env, decision.reason)
      : undefined;
  // Effects keep the model's order: after a call that waits for a person, a later effect
  // may only join that wait (or be refused), never run ahead of it.
  if (
    env.afterPause &&
    tool.sideEffect &&
    asked?.kind !== 'pause' &&
    asked?.kind !== 'reject' &&
    asked?.kind !== 'unattended'
  ) {
    return answered(
      errorResponse(
        call,
        'Not run: an earlier call in this turn is waiting for approval. Call it again once that is decided.',
      ),
    );
  }
  return asked ? applyDecision(call, tool, asked, env) : execute(call, tool, env);
}

/**
 * A call outside the patterns the definition narrowed its tool to is refused
 * before any rule or approval: no person is asked to allow what the agent's
 * author ruled out. A narrowed tool that cannot check its patterns fails closed.
 */
function outsidePatterns(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
): { refusal: string } | Record<string, never> {
  const patterns = env.patterns?.[tool.name];
  if (!patterns || patterns.length === 0) return {};
  if (!tool.outsidePatterns)
    return { refusal: `${tool.name} is narrowed to patterns it cannot check` };
  const reason = tool.outsidePatterns(call.args, patterns);
  return reason ? { refusal: reason } : {};
}

/** Runs the call and tells every observer how it ended, failures included. */
export async function observed(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
  run: () => Promise<CallOutcome>,
): Promise<CallOutcome> {
  if (!env.interceptors?.length) return run();
  const started = performance.now();
  let outcome: CallOutcome;
  try {
    outcome = await run();
  } catch (error) {
    await observe(call, tool, env, {
      status: 'failed',
      error,
      durationMs: performance.now() - started,
    });
    throw error;
  }
  await observe(call, tool, env, outcomeOf(outcome, performance.now() - started));
  return outcome;
}

function observe(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
  outcome: ToolCallOutcome,
): Promise<void> {
  const interceptors = env.interceptors ?? [];
  if (interceptors.length === 0) return Promise.resolve();
  return runAfterInterceptors(
    interceptors,
    {
      runId: env.state.runId,
      callId: call.id,
      tool: tool.name,
      args: call.args,
      sideEffect: tool.sideEffect,
    },
    outcome,
  );
}

function outcomeOf(outcome: CallOutcome, durationMs: number): ToolCallOutcome {
  if (outcome.kind === 'waiting') return { status: 'rejected', feedback: 'waiting for a person' };
  const response = outcome.response.response;
  return 'output' in response
    ? { status: 'completed', result: response.output, durationMs }
    : { status: 'failed', error: response.error, durationMs };
}
