import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { CadreEventOf } from '../events/types.js';
import { GenAI } from './gen-ai-attributes.js';
import { jsonText } from './message-content.js';
import { providerOf, type Execution, type ToolCall } from './traced-execution.js';
import { operation, stringOf, type Tracing } from './tracing.js';

type ToolEvent = CadreEventOf<
  'tool_call' | 'tool_result' | 'approval_required' | 'approval_resolved'
>;

/** The span of the call an event names, opened when the call started in an earlier process (resume). */
export function toolSpan(
  tracing: Tracing,
  execution: Execution,
  event: ToolEvent,
): ToolCall | undefined {
  const callId = stringOf(event.data.callId);
  if (!callId) return undefined;
  const known = execution.tools.get(callId);
  if (known) return known;
  const tool = stringOf(event.data.tool) ?? 'tool';
  const span = tracing.tracer.startSpan(
    `execute_tool ${tool}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        ...operation('execute_tool'),
        [GenAI.toolName]: tool,
        [GenAI.toolCallId]: callId,
      },
    },
    execution.context,
  );
  const call = { span, context: trace.setSpan(execution.context, span) };
  execution.tools.set(callId, call);
  return call;
}

export function recordToolCall(
  tracing: Tracing,
  execution: Execution,
  event: CadreEventOf<'tool_call'>,
): void {
  const chat = execution.chat;
  // The model has answered once its calls start; the call is part of its answer.
  if (chat) {
    chat.answeredAt ??= Date.now();
    chat.calls.push({
      type: 'tool_call',
      id: stringOf(event.data.callId) ?? '',
      name: stringOf(event.data.tool) ?? 'tool',
      arguments: tracing.options.captureContent ? (event.data.args ?? {}) : null,
    });
  }
  const call = toolSpan(tracing, execution, event);
  if (call && tracing.options.captureContent)
    call.span.setAttribute(GenAI.toolCallArguments, jsonText(event.data.args ?? {}));
}

export function recordApproval(
  tracing: Tracing,
  execution: Execution,
  event: CadreEventOf<'approval_required' | 'approval_resolved'>,
  name: string,
  attributes: Attributes,
): void {
  toolSpan(tracing, execution, event)?.span.addEvent(name, attributes);
}

export function recordToolResult(
  tracing: Tracing,
  execution: Execution,
  event: CadreEventOf<'tool_result'>,
): void {
  const call = toolSpan(tracing, execution, event);
  if (!call) return;
  const { data } = event;
  const failed = data.ok === false;
  if (failed) {
    call.span.setAttribute(GenAI.errorType, 'tool_error');
    // A tool's error text may quote its arguments: content, like them.
    call.span.setStatus({
      code: SpanStatusCode.ERROR,
      ...(tracing.options.captureContent ? { message: stringOf(data.error) ?? '' } : {}),
    });
  }
  if (tracing.options.captureContent) {
    const result = 'output' in data ? data.output : failed ? data.error : undefined;
    if (result !== undefined) call.span.setAttribute(GenAI.toolCallResult, jsonText(result));
    execution.toolAnswers.push({
      type: 'tool_call_response',
      id: stringOf(data.callId) ?? '',
      response: result ?? null,
    });
  }
  call.span.setAttribute(GenAI.providerName, providerOf(execution));
  call.span.end();
  execution.tools.delete(stringOf(data.callId) ?? '');
}
