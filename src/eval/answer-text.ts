import type { CadreEvent } from '../events/types.js';
import type { RunResult } from '../contracts/run-result.js';

/** Completion tools are how a run ends, not a routing choice. */
const COMPLETION_TOOLS = new Set(['complete_task', 'emit_value']);

/** The answer as text: a string output as it is, anything else as the final message. */
export function answerText(result: RunResult): string {
  return typeof result.output === 'string' ? result.output : result.final_message;
}

/** Lower case, one space between words, compatibility forms folded: `contains` compares these. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Expected values as text: strings as they are, anything else as JSON. */
export function expectedText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Tools the model called (any depth), de-duplicated in order of first use. */
export function calledTools(events: readonly CadreEvent[]): string[] {
  const names: string[] = [];
  for (const event of events) {
    const tool = event.type === 'tool_call' ? event.data.tool : undefined;
    if (typeof tool === 'string' && !COMPLETION_TOOLS.has(tool) && !names.includes(tool))
      names.push(tool);
  }
  return names;
}
