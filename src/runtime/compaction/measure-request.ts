import { estimateInputTokens } from '../../cost/call-estimate.js';
import type { ModelRequest } from '../../model/types.js';

/**
 * What the last call of an execution measured: our estimate of its request
 * and the input the provider reported for it. The next request is the same
 * conversation plus what was added since, so its size is the reported one
 * plus the estimated growth: calibrated by the provider's own count.
 */
export interface MeasuredRequest {
  estimated: number;
  billed: number;
}

/**
 * A request's input tokens before it is sent: the last reported size plus
 * the growth since (estimated high), or, with nothing measured yet (a run's
 * first call, right after a fold), the estimate scaled by the billed/estimated
 * ratio the cost budget has learned (at least 1: the estimate runs high).
 */
export function measureRequest(
  ctx: { measured?: MeasuredRequest; budget: { inputScale(): number } },
  request: ModelRequest,
  estimated = estimateInputTokens(request),
): number {
  const last = ctx.measured;
  if (last && estimated >= last.estimated) return last.billed + (estimated - last.estimated);
  return Math.ceil(estimated * ctx.budget.inputScale());
}

/** The window a request must fit: the model's, or less when a provider said so. */
export function effectiveWindow(ctx: {
  compaction?: { contextWindow?: number };
  learnedWindow?: number;
}): number | undefined {
  const configured = ctx.compaction?.contextWindow;
  const learned = ctx.learnedWindow;
  if (configured === undefined) return learned;
  return learned === undefined ? configured : Math.min(configured, learned);
}
