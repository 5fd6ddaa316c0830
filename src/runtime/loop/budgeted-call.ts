import { estimateInputTokens, outputCeiling, worstCaseUsd } from '../../cost/call-estimate.js';
import type { CostBudget } from '../../cost/cost-budget.js';
import { priceFor, priced, type ModelPrice, type PriceTable } from '../../cost/prices.js';
import { CostLimitError } from '../../errors/cadre-error.js';
import {
  MODEL_SPECIFICATION_VERSION,
  addUsage,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
  type Usage,
} from '../../model/types.js';

/** A call cleared to start (with the request to send), or the cap it would not fit under. */
export type HeldCall =
  | {
      kind: 'held';
      request: ModelRequest;
      /** The call's usage, priced; its real cost replaces what was held. Call once, failed or not. */
      settle(usage: Usage | undefined): Usage | undefined;
    }
  | { kind: 'refused'; limitUsd: number };

/**
 * Reserves a call's worst case (estimated input plus its output ceiling, at
 * the model's price) before it starts. Under a cap, a request with no output
 * limit is sent with the one the reservation assumed, so the estimate holds.
 * A model with no known price holds nothing (its cost is unknown, not zero),
 * but still does not start once a cap is spent.
 */
export function holdForCall(
  budget: CostBudget,
  request: ModelRequest,
  prices: PriceTable,
  /** The request's estimate when the caller already made it (measuring it for the window). */
  estimate?: number,
  /** The model's price when the caller keeps it (a run asks once per model, not every turn). */
  price: ModelPrice | undefined = priceFor(request.model, prices),
): HeldCall {
  const bounded = budget.bounded();
  // No cap anywhere above: nothing to hold or refuse, only the real cost to count once known.
  if (!bounded) return { kind: 'held', request, settle: (usage) => charged(budget, usage, price) };
  const sent =
    request.config.maxOutputTokens === undefined
      ? { ...request, config: { ...request.config, maxOutputTokens: outputCeiling(request) } }
      : request;
  const estimated = price ? (estimate ?? estimateInputTokens(request)) : 0;
  const reservation = budget.reserve(
    price ? worstCaseUsd(request, price, estimated * budget.inputScale()) : 0,
  );
  if (reservation.kind === 'refused') return reservation;
  const { hold } = reservation;
  return {
    kind: 'held',
    request: sent,
    settle: (usage) => {
      // A call that failed before reporting usage is counted as free, as the run's usage counts it.
      const cost = usage ? priced(usage, price) : undefined;
      if (usage) budget.observeInput(estimated, usage.inputTokens);
      hold.settle(cost?.costUsd ?? 0);
      return cost;
    },
  };
}

/** A call's usage, priced, and its cost counted where no cap held anything for it. */
function charged(
  budget: CostBudget,
  usage: Usage | undefined,
  price: ModelPrice | undefined,
): Usage | undefined {
  if (!usage) return undefined;
  const cost = priced(usage, price);
  if (cost.costUsd) budget.charge(cost.costUsd);
  return cost;
}

/**
 * A client whose every call reserves against `budget` first and settles when
 * it ends: for callers that hold only a client (code agents, tools asking the
 * model). A refused call throws CostLimitError before anything is sent.
 */
export function budgetedClient(
  client: ModelClient,
  budget: CostBudget,
  prices: PriceTable,
): ModelClient {
  return {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider: client.provider,
    async *generate(request, signal): AsyncIterable<ModelChunk> {
      const held = holdForCall(budget, request, prices);
      if (held.kind === 'refused') throw new CostLimitError(held.limitUsd);
      let usage: Usage | undefined;
      try {
        for await (const chunk of client.generate(held.request, signal)) {
          if (chunk.type === 'usage') usage = usage ? addUsage(usage, chunk.usage) : chunk.usage;
          yield chunk;
        }
      } finally {
        held.settle(usage);
      }
    },
  };
}
