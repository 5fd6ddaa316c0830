import { ValidationError } from '../../errors/validation-error.js';
import type { Message, Part } from '../../model/types.js';
import { PROMPT_INPUT } from '../../runtime/prompt/inputs.js';
import type { AgentDefinition } from '../../definition/types.js';
import { jsonClone } from '../../util/json-hash.js';
import type { StartExtras } from '../../store/types.js';
import type { Trajectory } from '../../trajectory/types.js';
import { ownSteps, promptIndex } from './own-steps.js';

/**
 * What a fork starts from: the conversation the model had before model step
 * `step` (earlier answers and tool results as recorded, nothing run again),
 * with the run's prompt replaced by `prompt`; the model is asked afresh from
 * there. A chat agent's `prompt` input becomes the edited text; structured
 * inputs stay as recorded.
 */
export function forkConversation(
  trajectory: Trajectory,
  definition: AgentDefinition,
  step: number,
  prompt: string,
): Required<Omit<StartExtras, 'trace'>> {
  if (definition.router || definition.workflow)
    throw stepError('this agent routes or runs a workflow; its runs cannot be forked');
  const steps = trajectory.model_steps;
  const own = ownSteps(trajectory);
  const from = steps[step];
  if (!from || own[step] !== true)
    throw stepError(
      `must be a step of the run's own agent: ${own.flatMap((mine, i) => (mine ? [i] : [])).join(', ') || 'none'}`,
    );
  const conversation: Message[] = [...jsonClone(from.request.messages)];
  const at = promptIndex(trajectory);
  // A run with no user text (an agent that just gets started) has its prompt put first.
  if (at < 0) conversation.unshift(edited(undefined, prompt));
  else conversation[at] = edited(conversation[at], prompt);
  const chat = !definition.inputConfig && typeof trajectory.inputs[PROMPT_INPUT] === 'string';
  return {
    inputs: chat ? { ...trajectory.inputs, [PROMPT_INPUT]: prompt } : jsonClone(trajectory.inputs),
    conversation,
  };
}

/** The prompt message with its text replaced; anything else it carried is kept. */
function edited(message: Message | undefined, prompt: string): Message {
  const kept = (message?.parts ?? []).filter((part) => part.kind !== 'text');
  const text: Part = { kind: 'text', text: prompt };
  return { role: 'user', parts: [text, ...kept] };
}

const stepError = (message: string): ValidationError =>
  new ValidationError([{ path: 'step', message }]);
