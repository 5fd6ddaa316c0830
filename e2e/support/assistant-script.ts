import type { ScriptedTurn } from '../../src/model/scripted-model.js';
import type { ModelRequest, Part } from '../../src/model/types.js';

export const MAIL = { to: 'bob@example.com', subject: 'Lunch', body: 'Lunch at noon on Friday?' };
export const GREETING = ['Hello Ann, ', 'this answer ', 'arrived in pieces.'];
/** What the model says before its call, for prompts that ask it to explain. */
export const SAID = 'I will ask you before I mail Bob about lunch.';

const text = (value: string): ScriptedTurn => ({
  parts: [{ text: value }],
  usage: { inputTokens: 90, outputTokens: 14 },
});

function lastUserText(request: ModelRequest): string {
  for (const message of [...request.messages].reverse()) {
    const part = message.parts.find((p): p is Part & { kind: 'text' } => p.kind === 'text');
    if (message.role === 'user' && part) return part.text;
  }
  return '';
}

/**
 * The scripted assistant: mail prompts call gmail_send (which waits for
 * approval); a rejection is answered by echoing the person's feedback; an
 * agent holding `task` delegates to the greeter; any other prompt gets a
 * greeting in three chunks, after a thought.
 */
export function assistantTurn(request: ModelRequest): ScriptedTurn {
  const response = request.messages
    .at(-1)
    ?.parts.find((p): p is Part & { kind: 'function_response' } => p.kind === 'function_response');
  if (response) {
    if (response.name === 'task') return text('The greeter has said hello for me.');
    if ('error' in response.response) {
      const feedback = /Their feedback: (.*?) Rethink/s.exec(response.response.error)?.[1];
      return text(
        feedback
          ? `Understood, I did not send it. Your feedback: "${feedback}"`
          : 'Understood, I did not send it.',
      );
    }
    return text(`Sent: the mail about "${MAIL.subject}" went to ${MAIL.to}.`);
  }
  // The coordinator (agents/coordinator.yaml) delegates to the greeter subagent.
  if (request.tools.some((t) => t.name === 'task'))
    return {
      parts: [{ functionCall: { name: 'task', args: { agent: 'greeter', query: 'Say hello' } } }],
      usage: { inputTokens: 60, outputTokens: 20 },
    };
  if (/mail/i.test(lastUserText(request)))
    return {
      parts: [
        ...(/explain/i.test(lastUserText(request)) ? [{ text: SAID }] : []),
        { thought: 'The user wants a mail sent; gmail_send waits for their approval.' },
        { functionCall: { name: 'gmail_send', args: MAIL } },
      ],
      usage: { inputTokens: 120, outputTokens: 30, thoughtTokens: 12 },
    };
  return {
    parts: [{ thought: 'A greeting; no tool is needed.' }, ...GREETING.map((t) => ({ text: t }))],
    usage: { inputTokens: 80, outputTokens: 9, thoughtTokens: 6 },
  };
}
