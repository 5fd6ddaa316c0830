import type { Message, Part } from '../../model/types.js';
import { headAndTail } from './trim-results.js';

/** Opens the note that stands for summarised turns; the model, the page and the summariser see it. */
export const SUMMARY_MARKER = '[Earlier conversation summarised]';

/**
 * The folded turns as plain text for the summariser; long tool results
 * trimmed with a marker. Past `maxChars` (what the summariser's own window
 * takes), the longest lines are cut too, head and tail kept, so the summary
 * request fits; short lines, such as an earlier note's facts, stay whole.
 */
export function transcript(
  messages: readonly Message[],
  maxToolResultChars: number,
  maxChars = Infinity,
): string {
  const lines = messages
    .flatMap((message) => message.parts.flatMap((part) => lineOf(message.role, part)))
    .map((line) => trimmed(line, maxToolResultChars));
  return withinChars(lines, maxChars).join('\n\n');
}

/** Cuts the longest lines to one shared length until the whole fits `maxChars`. */
function withinChars(lines: string[], maxChars: number): string[] {
  const total = lines.reduce((sum, line) => sum + line.length + 2, 0);
  if (total <= maxChars) return lines;
  // The largest length every line may keep so the total fits (binary search over it).
  let low = 0;
  let high = Math.max(...lines.map((l) => l.length));
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const size = lines.reduce((sum, line) => sum + Math.min(line.length, mid) + 2, 0);
    if (size <= maxChars) low = mid;
    else high = mid - 1;
  }
  return lines.map((line) => headAndTail(line, low, 'message'));
}

/** What a trimmed line was, for the marker; untrimmed lines (people's and the model's words) have none. */
type Line = { text: string; trimmable?: 'tool result' | 'call' };

function lineOf(role: Message['role'], part: Part): Line[] {
  switch (part.kind) {
    case 'text':
      return [{ text: `${role === 'user' ? 'User' : 'Assistant'}: ${part.text}` }];
    case 'thought':
      return [];
    case 'function_call':
      return [
        {
          text: `Assistant called ${part.name} with ${JSON.stringify(part.args)}`,
          trimmable: 'call',
        },
      ];
    case 'function_response': {
      const answer =
        'error' in part.response
          ? `failed: ${part.response.error}`
          : `returned: ${outputText(part.response.output)}`;
      return [{ text: `${part.name} ${answer}`, trimmable: 'tool result' }];
    }
    default:
      return part satisfies never;
  }
}

const outputText = (output: unknown): string =>
  typeof output === 'string' ? output : JSON.stringify(output);

function trimmed(line: Line, max: number): string {
  if (!line.trimmable || line.text.length <= max) return line.text;
  const cut = line.text.length - max;
  return `${line.text.slice(0, max)}\n[trimmed: ${cut} more characters of this ${line.trimmable} are not shown]`;
}

/** The latest user text in `messages` that is not a summary note: the request being worked on. */
export function latestRequest(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'user') continue;
    const text = message.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n');
    if (text && !text.startsWith(SUMMARY_MARKER)) return text;
  }
  return undefined;
}

/**
 * The conversation with `messages[0..cut)` replaced by one note: the
 * summary, then (when given) the request verbatim, so the task itself is
 * never paraphrased. Kept turns are untouched.
 */
export function foldedConversation(
  messages: readonly Message[],
  cut: number,
  summary: string,
  request: string | undefined,
): Message[] {
  const note = [
    `${SUMMARY_MARKER}\n${summary.trim()}`,
    request ? `The request being worked on, verbatim:\n${request}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const tail = messages.slice(cut);
  const first = tail[0];
  if (first?.role === 'user')
    return [
      { role: 'user', parts: [{ kind: 'text', text: note }, ...first.parts] },
      ...tail.slice(1),
    ];
  return [{ role: 'user', parts: [{ kind: 'text', text: note }] }, ...tail];
}
