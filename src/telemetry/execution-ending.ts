import { SpanStatusCode } from '@opentelemetry/api';
import { Cadre, GenAI } from './gen-ai-attributes.js';
import { isRecord, outputMessages } from './message-content.js';
import { endChat } from './model-call-spans.js';
import { addTokens, NO_TOKENS, tokenAttributes } from './token-usage.js';
import { providerOf, type Execution } from './traced-execution.js';
import { stringOf, type Tracing } from './tracing.js';

/** How an execution's spans end. */
export type Ending =
  | { kind: 'finished'; result: Record<string, unknown> }
  /** Waiting for a person: the run goes on later, under new spans. */
  | { kind: 'paused' }
  /** Its run or its parent ended first, or it stopped without a result. */
  | { kind: 'cut'; reason: string }
  /** Telemetry shut down while it was still open. */
  | { kind: 'incomplete' };

/** Ends an execution's span and whatever model or tool call of it is still open. */
export function endExecution(tracing: Tracing, execution: Execution, ending: Ending): void {
  const mark =
    ending.kind === 'paused'
      ? Cadre.paused
      : ending.kind === 'incomplete'
        ? Cadre.incomplete
        : Cadre.interrupted;
  // A run that reached its goal had its last answer, reported usage or not.
  if (ending.kind === 'finished' && execution.chat && result(ending) === 'GOAL')
    execution.chat.answeredAt ??= Date.now();
  // A model call or tool call still open did not get to finish.
  endChat(tracing, execution, mark);
  for (const call of execution.tools.values()) {
    call.span.setAttribute(mark, true);
    call.span.setAttribute(GenAI.providerName, providerOf(execution));
    call.span.end();
  }
  execution.tools.clear();
  const { span } = execution;
  switch (ending.kind) {
    case 'finished':
      outcome(tracing, execution, ending.result);
      break;
    case 'paused':
    case 'incomplete':
      span.setAttribute(mark, true);
      span.setAttributes(tokenAttributes(execution.tokens));
      break;
    case 'cut':
      span.setAttribute(mark, true);
      span.setAttributes(tokenAttributes(execution.tokens));
      span.setStatus({ code: SpanStatusCode.ERROR, message: ending.reason });
      break;
    default:
      ending satisfies never;
  }
  span.setAttribute(GenAI.providerName, providerOf(execution));
  span.end();
}

/** The result's reason, usage and (captured) answer; any end but GOAL or a cancellation is an error. */
function outcome(tracing: Tracing, execution: Execution, result: Record<string, unknown>): void {
  const { span } = execution;
  const reason = stringOf(result.terminate_reason) ?? 'GOAL';
  span.setAttribute(Cadre.terminateReason, reason);
  const recovered = stringOf(result.recovered_from);
  if (recovered) span.setAttribute(Cadre.recoveredFrom, recovered);
  // Usage events are the record; a child that vanished reports only its total.
  const tokens =
    execution.tokens === NO_TOKENS && isRecord(result.usage)
      ? addTokens(NO_TOKENS, result.usage)
      : execution.tokens;
  span.setAttributes(tokenAttributes(tokens));
  if (reason === 'ABORTED') span.setAttribute(Cadre.interrupted, true);
  else if (reason !== 'GOAL') {
    const error = isRecord(result.error) ? result.error : {};
    span.setAttribute(GenAI.errorType, stringOf(error.code) ?? reason.toLowerCase());
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: stringOf(error.message) ?? stringOf(result.final_message) ?? reason,
    });
  }
  if (tracing.options.captureContent) {
    const answer = stringOf(result.content) ?? stringOf(result.final_message) ?? '';
    const output = outputMessages(answer, reason === 'GOAL' ? 'stop' : reason.toLowerCase());
    if (output) span.setAttribute(GenAI.outputMessages, output);
  }
}

const result = (ending: Extract<Ending, { kind: 'finished' }>): string =>
  stringOf(ending.result.terminate_reason) ?? 'GOAL';
