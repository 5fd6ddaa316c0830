import type { FunctionResponsePart, Message } from '../../model/types.js';

/** Characters a trimmed result keeps at least, head and tail together. */
export const MIN_KEPT_CHARS = 600;

/** The text of a tool's answer, as the model would read it. */
export const answerText = (part: FunctionResponsePart): string =>
  'error' in part.response
    ? part.response.error
    : typeof part.response.output === 'string'
      ? part.response.output
      : (JSON.stringify(part.response.output) ?? '');

/** `text` cut to about `max` characters: its head and tail, with a visible marker between. */
export function headAndTail(text: string, max: number, what: string): string {
  if (text.length <= max) return text;
  const keep = Math.max(MIN_KEPT_CHARS, max);
  const head = Math.ceil(keep * 0.6);
  const tail = keep - head;
  const cut = text.length - head - tail;
  if (cut <= 0) return text;
  return `${text.slice(0, head)}\n[trimmed to fit the context window: ${cut} characters of this ${what} are not shown]\n${text.slice(text.length - tail)}`;
}

/** A tool answer trimmed to about `max` characters (an error stays an error). */
export function trimmedAnswer(part: FunctionResponsePart, max: number): FunctionResponsePart {
  const text = headAndTail(answerText(part), max, 'tool result');
  return 'error' in part.response
    ? { ...part, response: { error: text } }
    : { ...part, response: { output: text } };
}

export interface TrimmedResults {
  messages: Message[];
  /** Characters left out, over every trimmed answer. */
  removedChars: number;
  trimmed: number;
}

/**
 * Trims the largest tool answers in `messages[from..]`, largest first, until
 * `excessChars` are removed or none can shrink further. Every call keeps its
 * answer (trimmed, never dropped): providers reject a call without one.
 */
export function trimLargestResults(
  messages: readonly Message[],
  from: number,
  excessChars: number,
): TrimmedResults {
  const out = messages.map((m) => ({ ...m, parts: [...m.parts] }));
  const answers = out.flatMap((message, i) =>
    i < from
      ? []
      : message.parts.flatMap((part, j) =>
          part.kind === 'function_response' ? [{ i, j, size: answerText(part).length }] : [],
        ),
  );
  answers.sort((a, b) => b.size - a.size);
  let left = excessChars;
  let removedChars = 0;
  let trimmed = 0;
  for (const answer of answers) {
    if (left <= 0) break;
    if (answer.size <= MIN_KEPT_CHARS * 2) break;
    const part = out[answer.i]!.parts[answer.j] as FunctionResponsePart;
    const next = trimmedAnswer(part, Math.max(MIN_KEPT_CHARS, answer.size - left));
    const removed = answer.size - answerText(next).length;
    if (removed <= 0) continue;
    out[answer.i]!.parts[answer.j] = next;
    left -= removed;
    removedChars += removed;
    trimmed++;
  }
  return { messages: out, removedChars, trimmed };
}
