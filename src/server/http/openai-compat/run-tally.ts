import type { CadreEvent } from '../../../events/types.js';
import { addUsage, emptyUsage, type Usage } from '../../../model/types.js';

export interface RunTally {
  onEvent: (event: CadreEvent) => void;
  /** Tokens of the whole run tree (subagents included), as its `usage` events report them. */
  usage: () => Usage;
  /** Input tokens read from a prompt cache; undefined when no provider reported any. */
  cachedInputTokens: () => number | undefined;
  /** The top-level agent's text as it was handed to `onText`. */
  streamed: () => string;
}

/**
 * Follows a run's events: sums usage, and hands the top-level agent's text
 * to `onText` as it comes (a subagent's text is not the answer). Text of a
 * later turn starts on a new paragraph, so turns do not run together.
 */
export function runTally(onText: (text: string) => void = () => {}): RunTally {
  let usage = emptyUsage();
  let cached: number | undefined;
  let streamed = '';
  let newTurn = false;
  const onEvent = (event: CadreEvent): void => {
    const { data } = event;
    if (event.type === 'usage') {
      usage = addUsage(usage, {
        inputTokens: count(data.inputTokens),
        outputTokens: count(data.outputTokens),
        thoughtTokens: count(data.thoughtTokens),
        totalTokens: count(data.totalTokens),
      });
      if (data.cachedInputTokens !== undefined)
        cached = (cached ?? 0) + count(data.cachedInputTokens);
      return;
    }
    if (event.depth !== 0) return;
    if (event.type === 'turn_started') newTurn = streamed !== '';
    if (event.type !== 'text_delta' || typeof data.text !== 'string' || !data.text) return;
    const text = newTurn ? `\n\n${data.text}` : data.text;
    newTurn = false;
    streamed += text;
    onText(text);
  };
  return {
    onEvent,
    usage: () => usage,
    cachedInputTokens: () => cached,
    streamed: () => streamed,
  };
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
