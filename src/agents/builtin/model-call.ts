import type { AgentEventInput, TurnStartedData } from '../../events/types.js';
import type { ModelRequest, Usage } from '../../model/types.js';
import { runModelTurn } from '../../runtime/loop/model-turn.js';
import { withTimeoutAndCancellation } from '../../util/time-budget.js';
import type { AgentContext } from '../../contracts/agent.js';

export interface ModelText {
  text: string;
  usage?: Usage;
}

export interface ModelCallOptions {
  /** The turn_started message, e.g. "Planning sub-queries". */
  label: string;
  data?: TurnStartedData;
  /** Omitted: the call is bounded by the run's signal only. */
  timeoutMs?: number;
  onTimeout?: () => Error;
}

/**
 * One model call of a code agent. Yields `turn_started` before it and `usage`
 * after it (when the provider reports usage) so the runner counts turns and
 * tokens; text streams as text_delta events through ctx.emit.
 */
export async function* modelCall(
  ctx: AgentContext,
  request: ModelRequest,
  options: ModelCallOptions,
): AsyncGenerator<AgentEventInput, ModelText> {
  yield { type: 'turn_started', message: options.label, data: options.data ?? {} };
  const call = (signal: AbortSignal): Promise<ModelText> =>
    runModelTurn(ctx.model, request, signal, ctx.emit);
  const timeoutMs = options.timeoutMs;
  // setTimeout cannot hold Infinity (Node fires it at once), so an unbounded call gets no timer.
  const reply =
    timeoutMs !== undefined && Number.isFinite(timeoutMs)
      ? await withTimeoutAndCancellation(call, timeoutMs, ctx.signal, options.onTimeout)
      : await call(ctx.signal);
  if (reply.usage) {
    yield {
      type: 'usage',
      message: `${reply.usage.totalTokens} tokens`,
      data: { ...reply.usage },
    };
  }
  return reply.usage ? { text: reply.text, usage: reply.usage } : { text: reply.text };
}

/** A user message with one text part. */
export const userText = (
  text: string,
): { role: 'user'; parts: [{ kind: 'text'; text: string }] } => ({
  role: 'user',
  parts: [{ kind: 'text', text }],
});

/** Errors as one line for events and model-facing text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
