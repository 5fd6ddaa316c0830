import { ToolExecutionError } from '../../errors/cadre-error.js';
import type { EventSink } from '../../events/types.js';
import type { CostBudget } from '../../cost/cost-budget.js';
import type { PriceTable } from '../../cost/prices.js';
import { addUsage, type ModelClient } from '../../model/types.js';
import type { RunState } from '../../contracts/run-state.js';
import type { ToolContext } from '../../tools/types.js';
import { holdForCall } from './budgeted-call.js';
import { runModelTurn } from './model-turn.js';

/**
 * `ToolContext.generate` for one execution: the agent's model answers a
 * tool's question (no tools offered). Its tokens are priced and added to
 * the execution's usage like a turn's, and the run's cost limit applies.
 */
export function toolModelCall(
  client: ModelClient,
  state: RunState,
  emit: EventSink,
  prices: PriceTable,
  budget: CostBudget,
): NonNullable<ToolContext['generate']> {
  return async (request, signal) => {
    const held = holdForCall(
      budget,
      {
        model: state.model,
        ...(request.systemInstruction ? { systemInstruction: request.systemInstruction } : {}),
        messages: request.messages,
        tools: [],
        config: {
          ...(request.maxOutputTokens ? { maxOutputTokens: request.maxOutputTokens } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        },
      },
      prices,
    );
    if (held.kind === 'refused')
      throw new ToolExecutionError(`Not asked: the run's cost limit ($${held.limitUsd}) is spent.`);
    let turn;
    try {
      // Only retries are told: the answer is the tool's, not the agent speaking.
      turn = await runModelTurn(client, held.request, signal, (event) => {
        if (event.type === 'model_retry') emit(event);
      });
    } catch (error) {
      held.settle(undefined);
      throw error;
    }
    const usage = held.settle(turn.usage);
    if (usage) {
      state.usage = addUsage(state.usage, usage);
      emit({
        type: 'usage',
        message: `${usage.totalTokens} tokens (asked by a tool)`,
        data: { ...usage, purpose: 'tool' },
      });
    }
    return { text: turn.text, model: state.model };
  };
}
