/**
 * Message content in the GenAI conventions' JSON shape
 * (`[{ role, parts: [{ type, content }] }]`), recorded only when content
 * capture is on.
 */

type MessagePart = { type: 'text'; content: string } | { type: 'reasoning'; content: string };

/** What the agent was asked: the prompt when there is one, else all its inputs. */
export function inputMessages(inputs: unknown): string {
  const record = isRecord(inputs) ? inputs : {};
  const prompt = record.prompt ?? record.query;
  const content = typeof prompt === 'string' ? prompt : jsonText(inputs);
  return JSON.stringify([{ role: 'user', parts: [{ type: 'text', content }] }]);
}

/** What the model or agent answered; thoughts first, as the model produced them. */
export function outputMessages(
  text: string,
  finishReason: string,
  reasoning = '',
): string | undefined {
  const parts: MessagePart[] = [];
  if (reasoning) parts.push({ type: 'reasoning', content: reasoning });
  if (text) parts.push({ type: 'text', content: text });
  if (parts.length === 0) return undefined;
  return JSON.stringify([{ role: 'assistant', parts, finish_reason: finishReason }]);
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
