import { CadreError, isAbortError } from '../errors/cadre-error.js';
import type { EventSink } from '../events/types.js';
import type { FunctionCallPart, FunctionResponsePart } from '../model/types.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { COMPLETE_TASK, EMIT_VALUE, type CompletionProtocol } from './completion.js';
import type { ConfirmationHandler } from './confirmation.js';
import { describeArgs } from './describe-args.js';
import type { RunState } from './run-state.js';
import type { SchemaValidator } from './schema-validator.js';

/** What the calls of one turn need from the run. */
export interface CallEnvironment {
  state: RunState;
  registry: ToolRegistry;
  /** Names the model was offered this turn (only completion tools on the grace turn). */
  offered: ReadonlySet<string>;
  protocol: CompletionProtocol;
  validator: SchemaValidator;
  confirm: ConfirmationHandler;
  /** Pauses the time budget while a person decides. */
  waitingForPerson(waiting: boolean): void;
  toolContext: ToolContext;
  emit: EventSink;
  onReject: 'continue' | 'fail';
}

export interface CallOutcome {
  response: FunctionResponsePart;
  /** Set when the run must end as failed (onReject: fail). */
  failRun?: { code: string; message: string };
}

const INVALID_JSON = '__invalid_json__';

/**
 * Runs the calls of one turn and answers each exactly once, in call order.
 * Consecutive read-only calls run in parallel; a side-effecting call runs
 * alone, after those before it, so effects keep the model's order.
 */
export async function runToolCalls(
  calls: readonly FunctionCallPart[],
  env: CallEnvironment,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  let batch: FunctionCallPart[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 1) outcomes.push(await runOne(batch[0] as FunctionCallPart, env));
    else if (batch.length > 1)
      outcomes.push(...(await Promise.all(batch.map((c) => runOne(c, env)))));
    batch = [];
  };
  for (const call of calls) {
    const tool = env.offered.has(call.name) ? env.registry.get(call.name) : undefined;
    if (tool?.sideEffect) {
      await flush();
      outcomes.push(await runOne(call, env));
      if (outcomes.at(-1)?.failRun) break;
    } else {
      batch.push(call);
    }
  }
  await flush();
  // After a fatal rejection the remaining calls are still answered, never run.
  for (const call of calls.slice(outcomes.length)) {
    outcomes.push({
      response: errorResponse(call, 'Not run: the run ended after a rejected call.'),
    });
  }
  return outcomes;
}

async function runOne(call: FunctionCallPart, env: CallEnvironment): Promise<CallOutcome> {
  env.emit({
    type: 'tool_call',
    message: `${call.name} ${describeArgs(call.args)}`,
    data: { callId: call.id, tool: call.name, args: call.args },
  });
  const started = performance.now();
  const outcome = await dispatch(call, env);
  const durationMs = performance.now() - started;
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
  return outcome;
}

async function dispatch(call: FunctionCallPart, env: CallEnvironment): Promise<CallOutcome> {
  if (!env.offered.has(call.name)) {
    const available = [...env.offered].join(', ') || '(none)';
    env.emit({
      type: 'error',
      message: `Unauthorized tool call: '${call.name}'`,
      data: { context: 'tool_call_unauthorized', tool: call.name, callId: call.id },
    });
    return {
      response: errorResponse(
        call,
        `Unauthorized tool call: '${call.name}' is not available to this agent. Available tools: ${available}.`,
      ),
    };
  }
  if (Object.hasOwn(call.args, INVALID_JSON)) {
    return { response: errorResponse(call, `Invalid arguments for ${call.name}: not valid JSON.`) };
  }
  if (call.name === COMPLETE_TASK) return completeTask(call, env);
  if (call.name === EMIT_VALUE) return emitValue(call, env);
  const tool = env.registry.get(call.name) as Tool;
  const check = env.validator.forJsonSchema(tool.inputSchema)(call.args);
  if (!check.ok) {
    return {
      response: errorResponse(
        call,
        `Invalid arguments for ${call.name}: ${check.errors.join('; ')}`,
      ),
    };
  }
  if (
    tool.sideEffect &&
    tool.defaultApproval !== 'auto' &&
    !env.state.alwaysApproved.includes(tool.name)
  ) {
    const refusal = await askPerson(call, tool, env);
    if (refusal) return refusal;
  }
  return execute(call, tool, env);
}

async function askPerson(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
): Promise<CallOutcome | undefined> {
  const preview = tool.preview?.(call.args) ?? `${tool.name} ${describeArgs(call.args)}`;
  env.emit({
    type: 'approval_required',
    message: `Approval needed: ${preview}`,
    data: { callId: call.id, tool: tool.name, preview },
  });
  env.waitingForPerson(true);
  let decision;
  try {
    decision = await env.confirm(
      {
        runId: env.state.runId,
        callId: call.id,
        tool: tool.name,
        args: call.args,
        preview,
        execution: env.toolContext.execution,
      },
      env.toolContext.signal,
    );
  } finally {
    env.waitingForPerson(false);
  }
  env.emit({
    type: 'approval_resolved',
    message: `${tool.name}: ${decision.kind}`,
    data: { callId: call.id, tool: tool.name, decision: decision.kind },
  });
  switch (decision.kind) {
    case 'approve':
      return undefined;
    case 'approve_always':
      env.state.alwaysApproved.push(tool.name);
      return undefined;
    case 'reject': {
      const feedback = decision.feedback ? ` Their feedback: ${decision.feedback}` : '';
      const message = `The user rejected this call to ${tool.name}.${feedback} Rethink your approach, or finish and report what blocked you.`;
      return {
        response: errorResponse(call, message),
        ...(env.onReject === 'fail'
          ? { failRun: { code: 'rejected', message: `A person rejected ${tool.name}.${feedback}` } }
          : {}),
      };
    }
    default:
      return decision satisfies never;
  }
}

async function execute(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
): Promise<CallOutcome> {
  const started = performance.now();
  let response: FunctionResponsePart;
  try {
    const output = await tool.execute(call.args, env.toolContext);
    response = { kind: 'function_response', id: call.id, name: call.name, response: { output } };
  } catch (error) {
    if (isAbortError(error) || env.toolContext.signal.aborted) throw error;
    const message =
      error instanceof CadreError
        ? error.message
        : `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`;
    response = errorResponse(call, message);
  }
  const result = response.response;
  env.state.traces.push({
    tool: call.name,
    args: call.args,
    output: 'output' in result ? outputText(result.output) : `Error: ${result.error}`,
    duration_secs: (performance.now() - started) / 1000,
  });
  return { response };
}

function completeTask(call: FunctionCallPart, env: CallEnvironment): CallOutcome {
  const protocol = env.protocol;
  if (protocol.kind !== 'complete_task')
    return { response: errorResponse(call, 'complete_task is not available.') };
  if (env.state.completed) {
    return {
      response: errorResponse(call, 'complete_task was already called; the first call counts.'),
    };
  }
  if (!Object.hasOwn(call.args, protocol.outputName)) {
    return {
      response: errorResponse(
        call,
        `Missing required argument '${protocol.outputName}'. Call complete_task again with it.`,
      ),
    };
  }
  const check = protocol.validate(call.args[protocol.outputName]);
  if (!check.ok) {
    return {
      response: errorResponse(
        call,
        `Output validation failed: ${check.errors.join('; ')}. Fix the output and call complete_task again.`,
      ),
    };
  }
  env.state.completed = { output: check.value };
  env.emit({
    type: 'output_emitted',
    message: `Output '${protocol.outputName}' accepted`,
    data: { name: protocol.outputName },
  });
  return { response: okResponse(call, 'Output accepted. The task is complete.') };
}

function emitValue(call: FunctionCallPart, env: CallEnvironment): CallOutcome {
  const { name, value } = call.args;
  const outputs = env.protocol.kind === 'answer' ? undefined : env.protocol.outputs;
  if (typeof name !== 'string' || !outputs || !Object.hasOwn(outputs, name)) {
    return {
      response: errorResponse(
        call,
        `Unknown output '${String(name)}'. Expected one of: ${Object.keys(outputs ?? {}).join(', ')}.`,
      ),
    };
  }
  if (value === undefined)
    return { response: errorResponse(call, `Missing 'value' for output '${name}'.`) };
  env.state.emittedVars[name] = value;
  env.emit({ type: 'output_emitted', message: `Emitted ${name}`, data: { name, value } });
  return { response: okResponse(call, `Recorded ${name}.`) };
}

function outputText(output: unknown): string {
  return typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null');
}

function okResponse(call: FunctionCallPart, output: unknown): FunctionResponsePart {
  return { kind: 'function_response', id: call.id, name: call.name, response: { output } };
}

function errorResponse(call: FunctionCallPart, error: string): FunctionResponsePart {
  return { kind: 'function_response', id: call.id, name: call.name, response: { error } };
}
