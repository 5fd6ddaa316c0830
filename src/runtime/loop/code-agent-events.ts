import type { Agent } from '../../contracts/agent.js';
import { CostLimitError, isAbortError } from '../../errors/cadre-error.js';
import type { TerminateReason } from '../../contracts/run-result.js';
import type { EventSink } from '../../events/types.js';
import { addUsage, emptyUsage, type Usage } from '../../model/types.js';
import type { CodeAgentOptions } from './code-agent-options.js';
import type { CodeFrame } from './code-agent-frame.js';

/** How the agent's event stream ended, and what it used on the way. */
export interface CodeEnding {
  final: Record<string, unknown> | undefined;
  reason: TerminateReason;
  error: { code: string; message: string } | undefined;
  limitMessage: string | undefined;
  usage: Usage;
  turns: number;
}

export function announceStart(
  emit: EventSink,
  agent: Agent,
  options: CodeAgentOptions,
  frame: CodeFrame,
): void {
  const { model, input } = frame;
  if (options.resume)
    emit({
      type: 'run_resumed',
      message: `Resuming ${agent.name}`,
      data: { decisions: Object.keys(options.resume.decisions).length },
    });
  else
    emit({
      type: 'run_started',
      message: `Running ${agent.name} on ${model}`,
      data: { agent: agent.name, model, input },
    });
}

/** Runs the agent to its end, passing its events on and keeping its final result. */
export async function consumeAgent(agent: Agent, frame: CodeFrame): Promise<CodeEnding> {
  const { input, ctx, emitOwn, signal, callerSignal, deadline } = frame;
  let usage: Usage = emptyUsage();
  let turns = 0;
  let final: Record<string, unknown> | undefined;
  let reason: TerminateReason = 'ERROR';
  let error: { code: string; message: string } | undefined;
  let limitMessage: string | undefined;
  try {
    for await (const event of agent.execute(input, ctx)) {
      if (event.type === 'final_result') {
        final = event.data ?? {};
        continue;
      }
      if (event.type === 'usage') usage = addUsage(usage, toUsage(event.data));
      if (event.type === 'turn_started') turns++;
      emitOwn(event);
    }
    reason = final ? 'GOAL' : 'ERROR';
    if (!final)
      error = { code: 'no_completion', message: `${agent.name} ended without a final result.` };
  } catch (cause) {
    if (isAbortError(cause) || signal.aborted)
      reason = callerSignal.aborted ? 'ABORTED' : 'TIMEOUT';
    else if (cause instanceof CostLimitError) {
      // Ends like a declarative agent at its cap: a limit, not a failure.
      reason = 'MAX_COST';
      limitMessage = `Agent reached the cost limit ($${cause.limitUsd}).`;
    } else
      error = {
        code: 'internal',
        message: `${agent.name} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      };
  } finally {
    deadline.dispose();
  }
  return { final, reason, error, limitMessage, usage, turns };
}

function toUsage(data: Record<string, unknown> | undefined): Usage {
  const n = (key: keyof Usage): number =>
    typeof data?.[key] === 'number' ? (data[key] as number) : 0;
  return {
    inputTokens: n('inputTokens'),
    outputTokens: n('outputTokens'),
    thoughtTokens: n('thoughtTokens'),
    totalTokens: n('totalTokens'),
    ...(typeof data?.cachedInputTokens === 'number'
      ? { cachedInputTokens: data.cachedInputTokens }
      : {}),
    ...(typeof data?.costUsd === 'number' ? { costUsd: data.costUsd } : {}),
  };
}
