import { DEFAULT_PRICES, priceFor } from '../cost/prices.js';
import type { RunResult } from '../contracts/run-result.js';
import type { AgentDefinition } from '../definition/types.js';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { run } from '../agents/run-verbs.js';
import { agentCatalog } from './agent-catalog.js';

/**
 * The runaway a per-agent `max_cost_usd` cannot stop: an agent that answers
 * every turn with `fanOut` parallel `task` calls to itself, `levels` deep
 * (root included), on a real model's list price. The scripted model reports
 * usage as a tokenizer would (a token per 4 characters of the request, times
 * `inputFactor`) and always writes its whole output limit.
 */
export interface SpawningTree {
  capUsd: number;
  fanOut?: number;
  levels?: number;
  /** The agent's `maxOutputTokens`: each call writes this many. */
  outputTokens?: number;
  /**
   * How much more input the provider bills than a 4-characters-a-token count
   * (a misestimate), or that factor by call number, to vary it call to call.
   */
  inputFactor?: number | ((call: number) => number);
  model?: string;
}

export interface TreeOutcome {
  result: RunResult;
  /** Every model call the scripted model answered, across the tree. */
  calls: number;
  /** What the tree spent, summed from the usage the model reported. */
  spentUsd: number;
  /** The most one of its calls cost. */
  costliestCallUsd: number;
}

/** The scripted billing of one request: input at a token per 4 characters (times factor), output in full. */
export function billedTokens(
  request: ModelRequest,
  outputTokens: number,
  inputFactor: number,
): { inputTokens: number; outputTokens: number } {
  const chars = JSON.stringify([request.systemInstruction, request.messages, request.tools]).length;
  return { inputTokens: Math.ceil((chars / 4) * inputFactor), outputTokens };
}

export async function runSpawningTree(tree: SpawningTree): Promise<TreeOutcome> {
  const fanOut = tree.fanOut ?? 8;
  const levels = tree.levels ?? 3;
  const outputTokens = tree.outputTokens ?? 500;
  const factor = tree.inputFactor ?? 1;
  const inputFactor = typeof factor === 'number' ? () => factor : factor;
  const modelName = tree.model ?? 'gemini-2.5-flash';
  const price = priceFor(modelName, DEFAULT_PRICES);
  if (!price) throw new TypeError(`${modelName} has no price`);
  const spawner: AgentDefinition = {
    name: 'spawner',
    description: 'Splits its task among copies of itself.',
    promptConfig: { systemPrompt: 'ROLE:spawner. Split the task among subagents.' },
    modelConfig: { model: modelName, maxOutputTokens: outputTokens },
    toolConfig: { tools: ['task'] },
  };
  let calls = 0;
  let spentUsd = 0;
  let costliestCallUsd = 0;
  const model = new ScriptedModel(
    (request): ScriptedTurn => {
      calls++;
      const billed = billedTokens(request, outputTokens, inputFactor(calls));
      const cost = (billed.inputTokens * price.input + billed.outputTokens * price.output) / 1e6;
      spentUsd += cost;
      costliestCallUsd = Math.max(costliestCallUsd, cost);
      return {
        parts: Array.from({ length: fanOut }, (_, i) => ({
          functionCall: { name: 'task', args: { agent: 'spawner', query: `part ${i + 1}` } },
        })),
        usage: { ...billed, thoughtTokens: 0, totalTokens: billed.inputTokens + outputTokens },
      };
    },
    { recordRequests: false },
  );
  const result = await run(
    { ...spawner, runConfig: { max_cost_usd: tree.capUsd } },
    {
      model,
      inputs: { prompt: 'Do the whole job.' },
      agents: agentCatalog(spawner),
      limits: {
        maxDepth: levels - 1,
        globalConcurrency: fanOut,
        perParentConcurrency: fanOut,
      },
    },
  );
  return { result, calls, spentUsd, costliestCallUsd };
}
