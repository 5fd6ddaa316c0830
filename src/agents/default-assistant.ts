import type { AgentDefinition } from '../definition/types.js';

/**
 * The built-in assistants: the agent that runs when none is named. They share
 * a name, so a run of "the default agent" reads the same wherever it ran.
 */
const NAME = 'assistant';

/**
 * The default of `runAgent` and `cadre chat`: a router over the discovered
 * agents when there are any, else a chat agent with the read-only file tools.
 */
export function defaultAssistant(agentNames: readonly string[]): AgentDefinition {
  if (agentNames.length > 0) {
    return {
      name: NAME,
      description: 'Routes each request to the agents found in this project.',
      promptConfig: { systemPrompt: 'You are a helpful assistant.' },
      toolConfig: { tools: [] },
      router: { domains: [...agentNames] },
    };
  }
  return {
    name: NAME,
    description: 'A helpful assistant that can read files in the workspace.',
    promptConfig: {
      systemPrompt:
        'You are a helpful, concise assistant. Use the file tools when the question is about files in the workspace.',
    },
    toolConfig: { tools: ['ls', 'read_file', 'glob', 'grep'] },
  };
}

/**
 * The default of `cadre serve` when no ACTIVE_AGENT_PATH is set: mail and
 * calendar, every call waiting for the user's approval on the web page.
 */
export const SERVER_ASSISTANT: AgentDefinition = {
  name: NAME,
  displayName: 'Assistant',
  description: 'Sends email and creates calendar events for you, asking before it does.',
  promptConfig: {
    systemPrompt:
      'You are a helpful assistant that can send email (gmail_send) and create calendar events (calendar_event_create). ' +
      'Use the tools when the user asks for it; every call waits for their approval. Times are ISO 8601 with an offset. ' +
      'If a call is rejected, read the feedback and adapt, or explain what you would need.',
  },
  toolConfig: { tools: ['gmail_send', 'calendar_event_create'] },
};
