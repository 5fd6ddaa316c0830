import type { Message } from '@a2a-js/sdk';

/**
 * The structured inputs a message carries for an agent that takes them:
 * its first data part that is an object (the card's skill says so). Its
 * text parts stay the prompt. Checked against the agent's inputs by the
 * run service, like inputs sent to `/api`.
 */
export function messageInputs(message: Message): Record<string, unknown> | undefined {
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case !== 'data') continue;
    const value: unknown = content.value;
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  }
  return undefined;
}
