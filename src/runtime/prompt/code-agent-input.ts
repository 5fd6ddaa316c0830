import type { AgentInput } from '../../contracts/agent.js';
import type { Message } from '../../model/types.js';
import { PROMPT_INPUT } from './inputs.js';

/**
 * The prompt a run starts from, one rule for every code agent (router,
 * workflow, remote, a code agent run directly or as a subagent): the `prompt`
 * input when it is a string, else the inputs as JSON, so a structured call
 * still reaches the agent.
 */
export function promptFromInputs(inputs: Readonly<Record<string, unknown>>): string {
  const prompt = inputs[PROMPT_INPUT];
  return typeof prompt === 'string' ? prompt : JSON.stringify(inputs);
}

/** What a code agent is given: the prompt from its inputs, the inputs, history and memory. */
export function codeAgentInput(
  inputs: Record<string, unknown>,
  context: { history?: Message[] | undefined; memory?: string | undefined } = {},
): AgentInput {
  return {
    prompt: promptFromInputs(inputs),
    inputs,
    ...(context.history ? { history: context.history } : {}),
    ...(context.memory ? { memory: context.memory } : {}),
  };
}
