import { HttpProblem } from '../http-problem.js';
import type { ChatMessage } from './chat-request.js';

/**
 * The run's prompt from an OpenAI conversation. The last message must be
 * the user's: it is what the agent answers. Continuing a Cadre thread, the
 * thread's own history is what the model sees, so earlier messages are left
 * out. Otherwise they go before it as a labelled transcript: the run
 * service starts a new thread from a single prompt.
 */
export function promptFor(messages: readonly ChatMessage[], continuingThread: boolean): string {
  const last = messages.at(-1);
  const index = messages.length - 1;
  if (last?.role !== 'user')
    throw new HttpProblem(
      400,
      'validation_error',
      `body.messages.${index}: the last message must be the user's (the prompt).`,
    );
  const latest = textOf(last, index).trim();
  if (!latest)
    throw new HttpProblem(400, 'validation_error', `body.messages.${index}: must not be empty`);
  const earlier = continuingThread
    ? []
    : messages
        .slice(0, -1)
        .map((m, i) => transcriptLine(m, i))
        .filter((line) => line !== '');
  if (earlier.length === 0) return latest;
  return [
    'Earlier messages of this conversation, for context:',
    ...earlier,
    `The user's latest message, which you answer:\n${latest}`,
  ].join('\n\n');
}

function transcriptLine(message: ChatMessage, index: number): string {
  const text = textOf(message, index).trim();
  switch (message.role) {
    case 'system':
    case 'developer':
      return text && `System: ${text}`;
    case 'user':
      return text && `User: ${text}`;
    case 'assistant': {
      // Tool calls a client ran itself are context too: what was called, with what.
      const calls = (message.tool_calls ?? []).flatMap((call) =>
        call.function ? [`Assistant called ${call.function.name}(${call.function.arguments})`] : [],
      );
      return [text && `Assistant: ${text}`, ...calls].filter(Boolean).join('\n');
    }
    case 'tool':
    case 'function': {
      const from = message.tool_call_id ?? message.name;
      return text && `Tool result${from ? ` (${from})` : ''}: ${text}`;
    }
    default:
      return message.role satisfies never;
  }
}

/** The text of a message; agents take text only, so other parts are refused, not dropped. */
function textOf(message: ChatMessage, index: number): string {
  const { content } = message;
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, p) => {
      if (part.type === 'text') return part.text ?? '';
      if (part.type === 'refusal') return part.refusal ?? '';
      throw new HttpProblem(
        400,
        'validation_error',
        `body.messages.${index}.content.${p}: only text parts are supported; Cadre agents take text.`,
      );
    })
    .join('\n');
}
