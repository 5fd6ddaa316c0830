import type { Usage } from '../model/types.js';

/** US dollars per million tokens. `cachedInput` applies to input read from a prompt cache. */
export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
}

/** Model id (or id prefix) → price. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Providers' list prices for common models, per million tokens, for
 * estimates. Prices change: a project overrides or adds models in
 * `.cadre/prices.json` or the file `CADRE_PRICES` names (price-file.ts).
 * A model matches its own id or the longest id it starts with, so dated
 * versions (`gpt-4.1-2025-04-14`) price like their family.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'gemini-2.5-pro': { input: 1.25, output: 10, cachedInput: 0.31 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cachedInput: 0.075 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  'o3-pro': { input: 20, output: 80 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'claude-opus-4': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-haiku-4': { input: 1, output: 5, cachedInput: 0.1 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08 },
});

/** `openai:gpt-4.1` → `gpt-4.1`: prices are keyed by the provider's own id. */
const bareId = (model: string): string =>
  model
    .replace(/^[a-z][a-z0-9_-]*:/i, '')
    .trim()
    .toLowerCase();

/** The price of `model`: its own entry, else the longest entry it starts with. */
export function priceFor(model: string, table: PriceTable): ModelPrice | undefined {
  const id = bareId(model);
  const exact = Object.hasOwn(table, id) ? table[id] : undefined;
  if (exact) return exact;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (id.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * `usage` with its cost at `price`. Thinking tokens are billed as output
 * (as Gemini, OpenAI and Anthropic bill them); cached input at its own rate.
 */
export function priced(usage: Usage, price: ModelPrice | undefined): Usage {
  if (!price) return usage;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const dollars =
    ((usage.inputTokens - cached) * price.input +
      cached * (price.cachedInput ?? price.input) +
      (usage.outputTokens + usage.thoughtTokens) * price.output) /
    1_000_000;
  return { ...usage, costUsd: dollars };
}

/** `$0.0123`, `$1.23`: enough digits to tell small runs apart. */
export function formatUsd(amount: number): string {
  if (amount === 0) return '$0';
  if (amount < 0.01) return `$${amount.toPrecision(2)}`;
  return `$${amount.toFixed(amount < 1 ? 4 : 2)}`;
}
