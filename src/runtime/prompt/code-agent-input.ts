import type { AgentInput } from '../../contracts/agent.js';
import type { Message } from '../../model/types.js';

/**
 * What a code agent is given: the prompt is the `prompt` (or `query`) input,
 * else the inputs as JSON, so a structured call still reaches the agent.
 */
export function codeAgentInput(
  inputs: Record<string, unknown>,
  context: { history?: Message[] | undefined; memory?: string | undefined } = {},
): AgentInput {
  const prompt = inputs.prompt ?? inputs.query;
  return {
    prompt: typeof prompt === 'string' ? prompt : JSON.stringify(inputs),
    inputs,
    ...(context.history ? { history: context.history } : {}),
    ...(context.memory ? { memory: context.memory } : {}),
  };
}
