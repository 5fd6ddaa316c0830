import type { FunctionCallPart } from '../model/types.js';
import {
  runAfterInterceptors,
  runBeforeInterceptors,
  type ToolCallOutcome,
} from '../policy/interceptors.js';
import type { Tool } from '../tools/types.js';
import { answered, type CallEnvironment, type CallOutcome } from './call-environment.js';
import { errorResponse } from './call-responses.js';

/**
 * Runs a call between the run's interceptors: every `before` check runs
 * (deny beats confirm), a denied call is answered and never run, and every
 * observer hears the outcome, failures included.
 */
export async function intercepted(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
  run: (confirmReasons: string[]) => Promise<CallOutcome>,
): Promise<CallOutcome> {
  const interceptors = env.interceptors ?? [];
  if (interceptors.length === 0) return run([]);
  const subject = {
    runId: env.state.runId,
    callId: call.id,
    tool: tool.name,
    args: call.args,
    sideEffect: tool.sideEffect,
  };
  const verdict = await runBeforeInterceptors(interceptors, subject, env.toolContext.signal);
  let outcome: CallOutcome;
  if (verdict.kind === 'deny') {
    outcome = answered(errorResponse(call, `Refused: ${verdict.reasons.join(' ')}`));
    await runAfterInterceptors(interceptors, subject, {
      status: 'denied',
      reason: verdict.reasons.join(' '),
    });
    return outcome;
  }
  const started = performance.now();
  try {
    outcome = await run(verdict.kind === 'confirm' ? verdict.reasons : []);
  } catch (error) {
    await runAfterInterceptors(interceptors, subject, {
      status: 'failed',
      error,
      durationMs: performance.now() - started,
    });
    throw error;
  }
  await runAfterInterceptors(interceptors, subject, observed(outcome, performance.now() - started));
  return outcome;
}

function observed(outcome: CallOutcome, durationMs: number): ToolCallOutcome {
  if (outcome.kind === 'deferred') return { status: 'rejected', feedback: 'waiting for a person' };
  const response = outcome.response.response;
  return 'output' in response
    ? { status: 'completed', result: response.output, durationMs }
    : { status: 'failed', error: response.error, durationMs };
}
