import type { AgentDefinition } from '../definition/types.js';

/**
 * The agent `runAgent` and `cadre chat` use when none is named: a router
 * over the discovered agents when there are any, else a chat agent with
 * the read-only file tools.
 */
export function defaultAssistant(agentNames: readonly string[]): AgentDefinition {
  if (agentNames.length > 0) {
    return {
      name: 'assistant',
      description: 'Routes each request to the agents found in this project.',
      promptConfig: { systemPrompt: 'You are a helpful assistant.' },
      toolConfig: { tools: [] },
      router: { domains: [...agentNames] },
    };
  }
  return {
    name: 'assistant',
    description: 'A helpful assistant that can read files in the workspace.',
    promptConfig: {
      systemPrompt:
        'You are a helpful, concise assistant. Use the file tools when the question is about files in the workspace.',
    },
    toolConfig: { tools: ['ls', 'read_file', 'glob', 'grep'] },
  };
}
