import { isAbortError } from '../../errors/cadre-error.js';
import type { FunctionCallPart } from '../../model/types.js';
import type { Tool } from '../../tools/types.js';
import { answered, type CallEnvironment, type CallOutcome } from './call-environment.js';
import { errorResponse } from './call-responses.js';
import { COMPLETE_TASK, EMIT_VALUE } from '../../contracts/finish-tools.js';
import { completeTask, emitValue } from '../completion/completion-calls.js';
import { gatedCall } from './gated-call.js';
import { describeArgs } from './describe-args.js';
import { visibleText } from '../../util/visible-text.js';
import { SILENT } from '../loop/run-events.js';

export { type CallEnvironment, type CallOutcome } from './call-environment.js';

const INVALID_JSON = '__invalid_json__';

/**
 * Runs the calls of one turn and answers each exactly once, in call order
 * (a waiting call is answered when the run resumes). Consecutive read-only
 * calls run in parallel; a side-effecting call runs alone, after those
 * before it, so effects keep the model's order.
 */
export function runToolCalls(
  calls: readonly FunctionCallPart[],
  env: CallEnvironment,
): Promise<CallOutcome[]> {
  // Most turns make one read-only call: it runs without the batching frames around it.
  const only = calls.length === 1 ? (calls[0] as FunctionCallPart) : undefined;
  if (only && !(env.offered.has(only.name) && env.registry.get(only.name)?.sideEffect)) {
    const signal = env.toolContext.signal;
    return runOne(only, env).then(
      (outcome) => [outcome],
      (error: unknown) => {
        if (!isAbortError(error) && !signal.aborted) throw error;
        return [interrupted(only)];
      },
    );
  }
  return runInOrder(calls, env);
}

/** Runs a turn's calls: read-only ones side by side, each side effect alone and in order. */
async function runInOrder(
  calls: readonly FunctionCallPart[],
  env: CallEnvironment,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  const signal = env.toolContext.signal;
  // Read-only calls waiting to run together; most turns have one call, run without Promise.all.
  let batch: FunctionCallPart[] = [];
  let paused = false;
  for (const call of calls) {
    const tool = env.offered.has(call.name) ? env.registry.get(call.name) : undefined;
    if (!tool?.sideEffect) {
      batch.push(call);
      continue;
    }
    if (batch.length > 0) {
      await runBatch(batch, env, outcomes);
      batch = [];
    }
    if (signal.aborted) {
      outcomes.push(interrupted(call));
      continue;
    }
    // Effects keep the model's order: after a call that waits for a person, later
    // side effects either wait too (same batch) or are not run at all.
    const outcome = await settled(
      call,
      runOne(call, paused ? { ...env, afterPause: true } : env),
      signal,
    );
    outcomes.push(outcome);
    if (outcome.kind === 'waiting') paused = true;
    if (outcome.kind === 'answered' && outcome.failRun) break;
  }
  if (batch.length > 0) await runBatch(batch, env, outcomes);
  // After a fatal rejection the remaining calls are still answered, never run.
  for (let i = outcomes.length; i < calls.length; i++) {
    outcomes.push(
      answered(
        errorResponse(
          calls[i] as FunctionCallPart,
          'Not run: the run ended after a rejected call.',
        ),
      ),
    );
  }
  return outcomes;
}

/** Runs read-only calls side by side and adds their outcomes, in call order. */
async function runBatch(
  batch: readonly FunctionCallPart[],
  env: CallEnvironment,
  outcomes: CallOutcome[],
): Promise<void> {
  const signal = env.toolContext.signal;
  if (batch.length === 1) {
    const call = batch[0] as FunctionCallPart;
    try {
      outcomes.push(await runOne(call, env));
    } catch (error) {
      if (!isAbortError(error) && !signal.aborted) throw error;
      outcomes.push(interrupted(call));
    }
    return;
  }
  const settledAll = await Promise.all(batch.map((c) => settled(c, runOne(c, env), signal)));
  for (const outcome of settledAll) outcomes.push(outcome);
}

/** A call cut short by cancellation is answered as such; the answers that came back are kept. */
const interrupted = (call: FunctionCallPart): CallOutcome =>
  answered(errorResponse(call, 'Interrupted before it finished.'));

async function settled(
  call: FunctionCallPart,
  run: Promise<CallOutcome>,
  signal: AbortSignal,
): Promise<CallOutcome> {
  try {
    return await run;
  } catch (error) {
    if (isAbortError(error) || signal.aborted) return interrupted(call);
    throw error;
  }
}

function runOne(call: FunctionCallPart, env: CallEnvironment): Promise<CallOutcome> {
  // Nobody listening: no events to build, and no async frame around the call (a hot path).
  return env.emit === SILENT ? dispatch(call, env) : reported(call, env);
}

async function reported(call: FunctionCallPart, env: CallEnvironment): Promise<CallOutcome> {
  env.emit({
    type: 'tool_call',
    message: visibleText(`${call.name} ${describeArgs(call.args)}`),
    data: { callId: call.id, tool: call.name, args: call.args },
  });
  const started = performance.now();
  const outcome = await dispatch(call, env);
  if (outcome.kind === 'answered') reportResult(call, outcome, performance.now() - started, env);
  return outcome;
}

export function reportResult(
  call: FunctionCallPart,
  outcome: CallOutcome & { kind: 'answered' },
  durationMs: number,
  env: CallEnvironment,
): void {
  const response = outcome.response.response;
  const ok = 'output' in response;
  env.emit({
    type: 'tool_result',
    message: ok ? `${call.name} done` : `${call.name} failed: ${response.error}`,
    data: {
      callId: call.id,
      tool: call.name,
      ok,
      durationMs,
      ...(ok ? {} : { error: response.error }),
    },
  });
}

/** Checks the call (offered, valid arguments) and runs it; not an async frame of its own (a hot path). */
function dispatch(call: FunctionCallPart, env: CallEnvironment): Promise<CallOutcome> {
  if (!env.offered.has(call.name)) {
    const available = [...env.offered].join(', ') || '(none)';
    env.emit({
      type: 'error',
      message: `Unauthorized tool call: '${call.name}'`,
      data: { context: 'tool_call_unauthorized', tool: call.name, callId: call.id },
    });
    return Promise.resolve(
      answered(
        errorResponse(
          call,
          `Unauthorized tool call: '${call.name}' is not available to this agent. Available tools: ${available}.`,
        ),
      ),
    );
  }
  if (Object.hasOwn(call.args, INVALID_JSON)) {
    return Promise.resolve(
      answered(errorResponse(call, `Invalid arguments for ${call.name}: not valid JSON.`)),
    );
  }
  if (call.name === COMPLETE_TASK) return Promise.resolve(completeTask(call, env));
  if (call.name === EMIT_VALUE) return Promise.resolve(emitValue(call, env));
  const tool = env.registry.get(call.name) as Tool;
  const check = env.validator.forJsonSchema(tool.inputSchema)(call.args);
  if (!check.ok)
    return Promise.resolve(
      answered(
        errorResponse(call, `Invalid arguments for ${call.name}: ${check.errors.join('; ')}`),
      ),
    );
  return gatedCall(call, tool, env);
}
