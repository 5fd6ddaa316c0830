import type { AgentDefinition } from '../../definition/types.js';

/** The server's agent when none is named or configured: mail and calendar, with approvals. */
export const SERVER_ASSISTANT: AgentDefinition = {
  name: 'assistant',
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
