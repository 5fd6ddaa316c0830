import { SpanKind } from '@opentelemetry/api';
import type { CadreEventOf } from '../events/types.js';
import { finishReason } from './finish-reason.js';
import { Cadre, GenAI } from './gen-ai-attributes.js';
import { assistantMessage, outputMessages } from './message-content.js';
import { responseAttributes, responseInfo } from './response-info.js';
import { systemInstructions } from './system-instructions.js';
import { addTokens, NO_TOKENS, tokenAttributes } from './token-usage.js';
import { modelAttributes, providerOf, type Execution } from './traced-execution.js';
import { operation, stringOf, type Tracing } from './tracing.js';

/** Keeps a streamed answer's text and thoughts, when content is captured. */
export function recordDelta(
  execution: Execution | undefined,
  event: CadreEventOf<'text_delta' | 'thought_delta'>,
): void {
  const chat = execution?.chat;
  const text = stringOf(event.data.text);
  if (!chat || !text) return;
  if (event.type === 'text_delta') chat.text += text;
  else chat.reasoning += text;
}

/** A turn opens a `chat` span; the previous turn's ends first. */
export function startChat(
  tracing: Tracing,
  execution: Execution,
  event: CadreEventOf<'turn_started'>,
): void {
  endChat(tracing, execution);
  const system = tracing.options.captureContent ? systemInstructions(event.data) : undefined;
  const span = tracing.tracer.startSpan(
    execution.model ? `chat ${execution.model}` : 'chat',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        ...operation('chat'),
        ...modelAttributes(execution),
        ...(typeof event.data.turn === 'number' ? { [Cadre.turn]: event.data.turn } : {}),
        ...(event.data.grace === true ? { [Cadre.grace]: true } : {}),
        ...(tracing.options.captureContent && execution.transcript.length > 0
          ? { [GenAI.inputMessages]: JSON.stringify(execution.transcript) }
          : {}),
        ...(system ? { [GenAI.systemInstructions]: system } : {}),
      },
    },
    execution.context,
  );
  execution.chat = { span, text: '', reasoning: '', info: {}, calls: [] };
}

export function recordUsage(
  tracing: Tracing,
  execution: Execution,
  event: CadreEventOf<'usage'>,
): void {
  const tokens = addTokens(NO_TOKENS, event.data);
  execution.tokens = addTokens(execution.tokens, event.data);
  // Usage after an answer is another call's (compaction): the answer's span is done.
  if (execution.chat?.answeredAt !== undefined) endChat(tracing, execution);
  const chat = execution.chat;
  if (!chat) return;
  chat.span.setAttributes(tokenAttributes(tokens));
  chat.info = responseInfo(event.data);
  if (chat.info.provider && chat.info.provider !== execution.provider) {
    execution.provider = chat.info.provider;
    execution.span.setAttribute(GenAI.providerName, execution.provider);
  }
  chat.answeredAt = Date.now();
}

/**
 * Ends the model call's span: at the time its answer was complete, with
 * the response's attributes and (captured) the answer, calls included, which
 * then joins the transcript with the tools' answers. A call cut off before
 * it answered gets `mark` instead.
 */
export function endChat(tracing: Tracing, execution: Execution, mark?: string): void {
  const chat = execution.chat;
  if (!chat) return;
  delete execution.chat;
  const answered = chat.answeredAt !== undefined;
  if (mark && !answered) chat.span.setAttribute(mark, true);
  // A turn whose answer asked for calls finished to call them, whatever the provider said.
  const finish =
    chat.calls.length > 0 && answered
      ? 'tool_call'
      : chat.info.finishReason !== undefined
        ? finishReason(chat.info.finishReason)
        : !answered
          ? 'interrupted'
          : 'stop';
  if (answered) chat.span.setAttributes(responseAttributes(chat.info, finish));
  chat.span.setAttribute(GenAI.providerName, providerOf(execution));
  if (tracing.options.captureContent) {
    const output = outputMessages(chat.text, finish, chat.reasoning, chat.calls);
    if (output) chat.span.setAttribute(GenAI.outputMessages, output);
    const said = assistantMessage(chat.text, finish, chat.reasoning, chat.calls);
    if (said) execution.transcript.push(said);
    if (execution.toolAnswers.length > 0)
      execution.transcript.push({ role: 'tool', parts: execution.toolAnswers.splice(0) });
  }
  chat.span.end(chat.answeredAt);
}
