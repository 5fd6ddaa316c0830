import type { Message } from '../../model/types.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { ModelStep, Trajectory } from '../../trajectory/types.js';

/**
 * Which model steps the run's own agent took (the rest are its subagents'):
 * the agent's conversation only grows, so each of its requests starts with
 * the first one's messages, under the same instructions.
 */
export function ownSteps(trajectory: Trajectory): boolean[] {
  const first = trajectory.model_steps[0];
  if (!first) return [];
  return trajectory.model_steps.map(
    (step) =>
      step.request.systemInstruction === first.request.systemInstruction &&
      startsWith(step.request.messages, first.request.messages),
  );
}

/** The conversation of `later` continues the one of `earlier`. */
export const continues = (later: ModelStep, earlier: ModelStep): boolean =>
  later.request.messages.length > earlier.request.messages.length &&
  later.request.systemInstruction === earlier.request.systemInstruction &&
  startsWith(later.request.messages, earlier.request.messages);

function startsWith(messages: readonly Message[], prefix: readonly Message[]): boolean {
  return (
    messages.length >= prefix.length &&
    prefix.every((message, i) => canonicalJson(message) === canonicalJson(messages[i]))
  );
}

/**
 * The message a run started from: the last user text of its first request
 * (a fork's first request goes on past it, with recorded calls and results).
 */
export function promptIndex(trajectory: Trajectory): number {
  const messages = trajectory.model_steps[0]?.request.messages ?? [];
  return messages.findLastIndex((m) => m.role === 'user' && m.parts.some((p) => p.kind === 'text'));
}

export function textOf(message: Message | undefined): string {
  return (message?.parts ?? []).map((part) => (part.kind === 'text' ? part.text : '')).join('');
}
