import { CadreError, isAbortError } from '../../errors/cadre-error.js';
import type { FunctionCallPart, FunctionResponsePart } from '../../model/types.js';
import type { Tool, ToolContext } from '../../tools/types.js';
import { answered, type CallEnvironment, type CallOutcome } from './call-environment.js';
import { errorResponse, okResponse } from './call-responses.js';
import type { ConfirmationDecision } from '../../contracts/confirmation.js';
import { previewOf } from './preview-of.js';
import { ParentCallPaused } from '../subagents/child-pause.js';
import type { ApprovalBinding } from './approval-binding.js';
import type { RunJournal } from '../../contracts/run-journal.js';

/** Asks the confirmation handler; the time budget is paused while a person decides. */
export async function askPerson(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
  reason: string,
): Promise<ConfirmationDecision> {
  const preview = previewOf(tool, call.args);
  const binding = await bindingFor(call, tool, env);
  env.emit({
    type: 'approval_required',
    message: `Approval needed: ${preview}`,
    data: { callId: call.id, tool: tool.name, args: call.args, preview, reason },
  });
  env.waitingForPerson(true);
  try {
    return await env.confirm(
      {
        runId: env.state.runId,
        callId: call.id,
        tool: tool.name,
        args: call.args,
        preview,
        reason,
        execution: env.toolContext.execution,
        binding,
      },
      env.toolContext.signal,
    );
  } finally {
    env.waitingForPerson(false);
  }
}

/** What a decision means for the call: run it (once), answer with the rejection, or pause. */
export async function applyDecision(
  call: FunctionCallPart,
  tool: Tool,
  decision: ConfirmationDecision,
  env: CallEnvironment,
): Promise<CallOutcome> {
  if (decision.kind !== 'pause') {
    env.emit({
      type: 'approval_resolved',
      message: `${tool.name}: ${decision.kind}`,
      data: { callId: call.id, tool: tool.name, decision: decision.kind },
    });
  }
  switch (decision.kind) {
    case 'approve':
      return execute(call, tool, env);
    case 'approve_always':
      if (!env.state.alwaysApproved.includes(tool.name)) env.state.alwaysApproved.push(tool.name);
      return execute(call, tool, env);
    case 'reject': {
      const feedback = decision.feedback ? ` Their feedback: ${decision.feedback}` : '';
      const message = `The user rejected this call to ${tool.name}.${feedback} Rethink your approach, or finish and report what blocked you.`;
      return answered(
        errorResponse(call, message),
        env.onReject === 'fail'
          ? { code: 'rejected', message: `A person rejected ${tool.name}.${feedback}` }
          : undefined,
      );
    }
    case 'unattended': {
      // Not a person's "no": the model must not read it as a refusal of the idea.
      const message = unattendedMessage(tool.name);
      return answered(
        errorResponse(call, message),
        env.onReject === 'fail'
          ? { code: 'unattended', message: `No one could approve ${tool.name}.` }
          : undefined,
      );
    }
    case 'pause':
      // Bound to the call as the person will see it: a resume checks the approval against it.
      return { kind: 'waiting', call, binding: await bindingFor(call, tool, env) };
    default:
      return decision satisfies never;
  }
}

/** What the model is told of a call no one could approve; scripted models match its start. */
export const unattendedMessage = (tool: string): string =>
  `Not run: no one could approve this call to ${tool}. It needs a person's approval, and this run has no one to ask and was not allowed it in advance. This is not a refusal: do not call ${tool} again in this run; finish without it and say what is left for a person to do.`;

/** Runs a tool and records its trace; a side effect is claimed first so it runs at most once. */
export function execute(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
): Promise<CallOutcome> {
  if (tool.sideEffect && env.journal) return executeClaimed(call, tool, env, env.journal);
  // A read (most calls): no claim to wait for, and no async frame of its own around the tool.
  // What throwIfAborted would throw, as the rejection an async function would give.
  if (env.toolContext.signal.aborted) return Promise.reject(env.toolContext.signal.reason);
  const started = performance.now();
  let running: unknown;
  try {
    running = tool.execute(call.args, callContext(env.toolContext, call, tool));
  } catch (error) {
    running = Promise.reject(error);
  }
  const failed = (error: unknown): CallOutcome => {
    const outcome = failure(call, tool, error, env);
    if (outcome.kind === 'rethrow') throw error;
    return outcome.kind === 'waiting'
      ? outcome.outcome
      : traced(call, outcome.response, env, started);
  };
  return Promise.resolve(running).then((output) => {
    let response: FunctionResponsePart;
    try {
      // An output JSON cannot hold (a BigInt, a cycle) fails the call, not the run.
      response = okResponse(call, output);
    } catch (error) {
      return failed(error);
    }
    return traced(call, response, env, started);
  }, failed);
}

/** A side effect: claimed before it runs, settled once it ended, so it runs at most once. */
async function executeClaimed(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
  journal: Pick<RunJournal, 'claim' | 'settle'>,
): Promise<CallOutcome> {
  // Never start a side effect once the run is being cancelled.
  env.toolContext.signal.throwIfAborted();
  const claim = await journal.claim(call, { rerunUnknown: tool.delivery === 'exactly-once' });
  if (claim.kind === 'known')
    return answered(
      claim.outcome.ok
        ? okResponse(call, claim.outcome.output)
        : errorResponse(call, claim.outcome.error),
    );
  const started = performance.now();
  let response: FunctionResponsePart;
  try {
    const output = await tool.execute(call.args, callContext(env.toolContext, call, tool));
    response = okResponse(call, output);
  } catch (error) {
    const failed = failure(call, tool, error, env);
    if (failed.kind === 'waiting') return failed.outcome;
    if (failed.kind === 'rethrow') {
      // The action must not stay `executing`: record that it was cut short.
      await journal.settle(call, { ok: false, error: 'interrupted' });
      throw error;
    }
    response = failed.response;
  }
  const result = response.response;
  await journal.settle(
    call,
    'output' in result ? { ok: true, output: result.output } : { ok: false, error: result.error },
  );
  return traced(call, response, env, started);
}

/** What a tool's failure means: a paused subagent, a cancellation to pass on, or an error answer. */
function failure(
  call: FunctionCallPart,
  tool: Tool,
  error: unknown,
  env: CallEnvironment,
):
  | { kind: 'waiting'; outcome: CallOutcome }
  | { kind: 'rethrow' }
  | { kind: 'answer'; response: FunctionResponsePart } {
  // A subagent waits for a person: this call pauses with it, unanswered.
  if (error instanceof ParentCallPaused)
    return { kind: 'waiting', outcome: { kind: 'waiting', call, child: error.child } };
  if (isAbortError(error) || env.toolContext.signal.aborted) return { kind: 'rethrow' };
  const message =
    error instanceof CadreError
      ? error.message
      : `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`;
  return { kind: 'answer', response: errorResponse(call, message) };
}

/** The call's answer, with its trace recorded in the run's state. */
function traced(
  call: FunctionCallPart,
  response: FunctionResponsePart,
  env: CallEnvironment,
  started: number,
): CallOutcome {
  const result = response.response;
  env.state.traces.push({
    tool: call.name,
    args: call.args,
    output: 'output' in result ? outputText(result.output) : `Error: ${result.error}`,
    duration_secs: (performance.now() - started) / 1000,
  });
  return answered(response);
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  // What JSON.stringify writes for these, without its cost (a trace per call).
  if (typeof output === 'boolean' || (typeof output === 'number' && Number.isFinite(output)))
    return String(output);
  return JSON.stringify(output) ?? 'null';
}

/**
 * The tool's view of its call: a side effect's action id, and children it
 * starts (agent tools, `task`) named after the call, so the tree can place
 * each child under the call that started it.
 */
function callContext(ctx: ToolContext, call: FunctionCallPart, tool: Tool): ToolContext {
  const { spawn } = ctx;
  // A copy per call (a tool that changes its context changes no other call's), its two
  // fields set on it: conditional spreads made two objects more.
  const context: ToolContext = { ...ctx };
  if (tool.sideEffect) context.actionId = call.id;
  if (spawn) context.spawn = (request, signal) => spawn({ callId: call.id, ...request }, signal);
  return context;
}

/**
 * What an approval of this call is bound to. Loaded with the first call a
 * person is asked about: its normalisers parse mail and calendar arguments,
 * which importing the package need not load.
 */
async function bindingFor(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
): Promise<ApprovalBinding> {
  const hash = await env.definitionHash();
  const { bindingOf } = await import('./approval-binding.js');
  return bindingOf(call, tool, hash);
}
