/**
 * Message content in the GenAI conventions' JSON shape
 * (`[{ role, parts: [{ type, ... }] }]`), recorded only when content
 * capture is on.
 */

export type MessagePart =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown };

export interface ChatMessage {
  role: 'user' | 'assistant' | 'tool';
  parts: MessagePart[];
  finish_reason?: string;
}

/** What the agent was asked: the prompt when there is one, else all its inputs. */
export function inputMessage(inputs: unknown): ChatMessage {
  const record = isRecord(inputs) ? inputs : {};
  const prompt = record.prompt ?? record.query;
  const content = typeof prompt === 'string' ? prompt : jsonText(inputs);
  return { role: 'user', parts: [{ type: 'text', content }] };
}

export const inputMessages = (inputs: unknown): string => JSON.stringify([inputMessage(inputs)]);

/** What the model answered: thoughts first, as the model produced them, then text and calls. */
export function assistantMessage(
  text: string,
  finishReason: string,
  reasoning = '',
  calls: readonly MessagePart[] = [],
): ChatMessage | undefined {
  const parts: MessagePart[] = [];
  if (reasoning) parts.push({ type: 'reasoning', content: reasoning });
  if (text) parts.push({ type: 'text', content: text });
  parts.push(...calls);
  if (parts.length === 0) return undefined;
  return { role: 'assistant', parts, finish_reason: finishReason };
}

/** `gen_ai.output.messages` of one answer, or undefined when it said nothing. */
export function outputMessages(
  text: string,
  finishReason: string,
  reasoning = '',
  calls: readonly MessagePart[] = [],
): string | undefined {
  const message = assistantMessage(text, finishReason, reasoning, calls);
  return message ? JSON.stringify([message]) : undefined;
}

/** A value as span text: strings as they are, the rest as JSON. */
export function jsonText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return String(value);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
