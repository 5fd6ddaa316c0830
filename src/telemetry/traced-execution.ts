import { SpanKind, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { Cadre, GenAI } from './gen-ai-attributes.js';
import type { ChatMessage, MessagePart } from './message-content.js';
import { providerOfModel, type ResponseInfo } from './response-info.js';
import { NO_TOKENS, type Tokens } from './token-usage.js';
import { operation, type Tracing } from './tracing.js';

export interface ModelCall {
  span: Span;
  /** The answer and thoughts so far; filled only when content is captured. */
  text: string;
  reasoning: string;
  /**
   * When the model's answer was complete (its usage came, or its calls
   * started): the span ends at this time, but only once the turn's calls
   * are known, so its output can name them.
   */
  answeredAt?: number;
  info: ResponseInfo;
  /** The calls the answer asked for; their arguments only when content is captured. */
  calls: MessagePart[];
}

export interface ToolCall {
  span: Span;
  context: Context;
}

/** One execution's open spans and what its spans will report. */
export interface Execution {
  runId: string;
  executionId: string;
  depth: number;
  span: Span;
  context: Context;
  model?: string;
  provider?: string;
  conversationId?: string;
  chat?: ModelCall;
  tools: Map<string, ToolCall>;
  tokens: Tokens;
  /** The conversation so far (content capture only): each model call's input. */
  transcript: ChatMessage[];
  /** Tool answers not yet in the transcript: they follow the answer that asked for them. */
  toolAnswers: MessagePart[];
}

export interface ExecutionIdentity {
  runId: string;
  executionId: string;
  depth: number;
  agent: string;
}

/** Opens an execution's `invoke_agent` span under its parent's context. */
export function openExecution(
  tracing: Tracing,
  who: ExecutionIdentity,
  parentContext: Context,
  inheritedConversation: string | undefined,
): Execution {
  const conversationId = tracing.options.conversationId ?? inheritedConversation;
  const span = tracing.tracer.startSpan(
    `invoke_agent ${who.agent}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        ...operation('invoke_agent'),
        [GenAI.agentName]: who.agent,
        [Cadre.runId]: who.runId,
        [Cadre.executionId]: who.executionId,
        ...(conversationId ? { [GenAI.conversationId]: conversationId } : {}),
      },
    },
    parentContext,
  );
  return {
    runId: who.runId,
    executionId: who.executionId,
    depth: who.depth,
    span,
    context: trace.setSpan(parentContext, span),
    ...(conversationId ? { conversationId } : {}),
    tools: new Map(),
    tokens: NO_TOKENS,
    transcript: [],
    toolAnswers: [],
  };
}

export function modelAttributes(execution: Execution): Attributes {
  return {
    ...(execution.model ? { [GenAI.requestModel]: execution.model } : {}),
    ...(execution.provider ? { [GenAI.providerName]: execution.provider } : {}),
    ...(execution.conversationId ? { [GenAI.conversationId]: execution.conversationId } : {}),
  };
}

/** `gen_ai.provider.name`: as the model's responses named it, else read from the model's name. */
export function providerOf(execution: Execution): string {
  return execution.provider ?? providerOfModel(execution.model);
}
