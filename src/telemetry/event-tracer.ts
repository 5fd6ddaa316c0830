import {
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import {
  EMPTY_TREE,
  nodeOf,
  reduceExecutionTree,
  type ExecutionTree,
} from '../events/execution-tree.js';
import { parseTraceparent, type TraceCarrier } from '../contracts/trace-carrier.js';
import { finishReason } from './finish-reason.js';
import type { CadreEvent, CadreEventOf } from '../events/types.js';
import { Cadre, GenAI, providerName, type GenAIOperation } from './gen-ai-attributes.js';
import {
  assistantMessage,
  inputMessage,
  isRecord,
  jsonText,
  outputMessages,
  type ChatMessage,
  type MessagePart,
} from './message-content.js';
import {
  providerOfModel,
  responseAttributes,
  responseInfo,
  type ResponseInfo,
} from './response-info.js';
import { systemInstructions } from './system-instructions.js';
import { addTokens, NO_TOKENS, tokenAttributes, type Tokens } from './token-usage.js';

export interface EventTracerOptions {
  captureContent: boolean;
  conversationId?: string;
  /** The caller's trace (an incoming `traceparent`): the run's spans continue it. */
  parent?: TraceCarrier;
}

/** The context a run's root span opens in: the caller's remote span, or none. */
function rootContext(parent: TraceCarrier | undefined): Context {
  const parsed = parent && parseTraceparent(parent.traceparent);
  if (!parsed) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parsed.traceId,
    spanId: parsed.spanId,
    traceFlags: parsed.flags,
    isRemote: true,
    ...(parent.tracestate ? { traceState: createTraceState(parent.tracestate) } : {}),
  });
}

interface ModelCall {
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

interface ToolCall {
  span: Span;
  context: Context;
}

interface Execution {
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

/** How an execution's spans end. */
type Ending =
  | { kind: 'finished'; result: Record<string, unknown> }
  /** Waiting for a person: the run goes on later, under new spans. */
  | { kind: 'paused' }
  /** Its run or its parent ended first, or it stopped without a result. */
  | { kind: 'cut'; reason: string }
  /** Telemetry shut down while it was still open. */
  | { kind: 'incomplete' };

/**
 * Turns one event stream into spans, per the GenAI conventions: an
 * `invoke_agent` span per execution (a child's under the call that started
 * it), `chat` spans for model calls, `execute_tool` spans for tool calls.
 * Every span ends, whether the run finishes, fails, is cancelled or pauses.
 */
export class EventTracer {
  private readonly executions = new Map<string, Execution>();
  /** Each open run's execution tree: who started whom, and from which call. */
  private readonly trees = new Map<string, ExecutionTree>();
  private readonly root: Context;

  constructor(
    private readonly tracer: Tracer,
    private readonly options: EventTracerOptions,
  ) {
    this.root = rootContext(options.parent);
  }

  /**
   * The trace context an execution's outgoing calls carry (its own span),
   * so the service it calls continues this trace; undefined when the
   * execution has no open span.
   */
  carrier(executionId: string): TraceCarrier | undefined {
    const span = this.executions.get(executionId)?.span;
    const context = span?.spanContext();
    if (!context || !trace.isSpanContextValid(context)) return undefined;
    const flags = context.traceFlags.toString(16).padStart(2, '0');
    const state = context.traceState?.serialize();
    return {
      traceparent: `00-${context.traceId}-${context.spanId}-${flags}`,
      ...(state ? { tracestate: state } : {}),
    };
  }

  /** True when no span is open: nothing to end at shutdown. */
  get idle(): boolean {
    return this.executions.size === 0;
  }

  record(raw: CadreEvent): void {
    // Deltas never place an execution in the tree: the hot path stays a lookup.
    if (raw.type !== 'text_delta' && raw.type !== 'thought_delta')
      this.trees.set(raw.runId, reduceExecutionTree(this.trees.get(raw.runId) ?? EMPTY_TREE, raw));
    const event = raw;
    switch (event.type) {
      case 'text_delta':
      case 'thought_delta':
        return this.delta(event);
      case 'run_started':
        return this.started(event);
      case 'run_resumed':
        this.execution(event).span.setAttribute(Cadre.resumed, true);
        return;
      case 'turn_started':
        return this.turnStarted(event);
      case 'model_retry':
        this.execution(event).chat?.span.addEvent('cadre.model_retry', {
          'cadre.retry.attempt': numberOf(event.data.attempt),
          'cadre.retry.reason': stringOf(event.data.reason) ?? '',
        });
        return;
      case 'usage':
        return this.usage(event);
      case 'tool_call':
        return this.toolCall(event);
      case 'approval_required':
        return this.approval(event, Cadre.approvalRequested, {
          [Cadre.approvalReason]: stringOf(event.data.reason) ?? '',
          ...(this.options.captureContent
            ? { [Cadre.approvalPreview]: stringOf(event.data.preview) ?? '' }
            : {}),
        });
      case 'approval_resolved':
        return this.approval(event, Cadre.approvalDecided, {
          [Cadre.approvalDecision]: stringOf(event.data.decision) ?? '',
        });
      case 'tool_result':
        return this.toolResult(event);
      case 'subagent_started':
        return this.subagentStarted(event);
      case 'subagent_finished':
        return this.subagentFinished(event);
      case 'error':
        return this.error(event);
      case 'warning':
      case 'recovery_started':
      case 'run_taken_over':
        this.execution(event).span.addEvent(`cadre.${event.type}`, {
          'cadre.message': event.message,
        });
        return;
      case 'final_result':
        return this.finalResult(event);
      case 'run_paused':
        return this.endRun(event, { kind: 'paused' });
      default:
        return;
    }
  }

  /** Ends every open span (shutdown): children first, so each ends inside its parent. */
  endAll(): void {
    for (const execution of this.deepestFirst(() => true))
      this.end(execution, { kind: 'incomplete' });
    this.trees.clear();
  }

  private delta(event: CadreEventOf<'text_delta' | 'thought_delta'>): void {
    // Nothing to keep unless content is captured: the hot path stays a lookup.
    if (!this.options.captureContent) return;
    const chat = this.executions.get(event.executionId)?.chat;
    const text = stringOf(event.data.text);
    if (!chat || !text) return;
    if (event.type === 'text_delta') chat.text += text;
    else chat.reasoning += text;
  }

  private started(event: CadreEventOf<'run_started'>): void {
    const execution = this.execution(event);
    const { data } = event;
    const agent = stringOf(data.agent);
    if (agent) {
      execution.span.updateName(`invoke_agent ${agent}`);
      execution.span.setAttribute(GenAI.agentName, agent);
    }
    execution.model = stringOf(data.model) ?? execution.model;
    const provider = stringOf(data.provider);
    if (provider) execution.provider = providerName(provider);
    execution.conversationId ??= stringOf(data.threadId);
    execution.span.setAttributes(this.modelAttributes(execution));
    if (this.options.captureContent) {
      const asked = inputMessage(data.inputs ?? data.input);
      execution.transcript = [asked];
      execution.span.setAttribute(GenAI.inputMessages, JSON.stringify([asked]));
    }
  }

  private turnStarted(event: CadreEventOf<'turn_started'>): void {
    const execution = this.execution(event);
    this.endChat(execution);
    const system = this.options.captureContent ? systemInstructions(event.data) : undefined;
    const span = this.tracer.startSpan(
      execution.model ? `chat ${execution.model}` : 'chat',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...operation('chat'),
          ...this.modelAttributes(execution),
          ...(typeof event.data.turn === 'number' ? { [Cadre.turn]: event.data.turn } : {}),
          ...(event.data.grace === true ? { [Cadre.grace]: true } : {}),
          ...(this.options.captureContent && execution.transcript.length > 0
            ? { [GenAI.inputMessages]: JSON.stringify(execution.transcript) }
            : {}),
          ...(system ? { [GenAI.systemInstructions]: system } : {}),
        },
      },
      execution.context,
    );
    execution.chat = { span, text: '', reasoning: '', info: {}, calls: [] };
  }

  private usage(event: CadreEventOf<'usage'>): void {
    const execution = this.execution(event);
    const tokens = addTokens(NO_TOKENS, event.data);
    execution.tokens = addTokens(execution.tokens, event.data);
    // Usage after an answer is another call's (compaction): the answer's span is done.
    if (execution.chat?.answeredAt !== undefined) this.endChat(execution);
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

  private toolCall(event: CadreEventOf<'tool_call'>): void {
    const execution = this.execution(event);
    const chat = execution.chat;
    // The model has answered once its calls start; the call is part of its answer.
    if (chat) {
      chat.answeredAt ??= Date.now();
      chat.calls.push({
        type: 'tool_call',
        id: stringOf(event.data.callId) ?? '',
        name: stringOf(event.data.tool) ?? 'tool',
        arguments: this.options.captureContent ? (event.data.args ?? {}) : null,
      });
    }
    const call = this.toolSpan(execution, event);
    if (call && this.options.captureContent)
      call.span.setAttribute(GenAI.toolCallArguments, jsonText(event.data.args ?? {}));
  }

  private approval(
    event: CadreEventOf<'approval_required' | 'approval_resolved'>,
    name: string,
    attributes: Attributes,
  ): void {
    this.toolSpan(this.execution(event), event)?.span.addEvent(name, attributes);
  }

  private toolResult(event: CadreEventOf<'tool_result'>): void {
    const execution = this.execution(event);
    const call = this.toolSpan(execution, event);
    if (!call) return;
    const { data } = event;
    const failed = data.ok === false;
    if (failed) {
      call.span.setAttribute(GenAI.errorType, 'tool_error');
      // A tool's error text may quote its arguments: content, like them.
      call.span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(this.options.captureContent ? { message: stringOf(data.error) ?? '' } : {}),
      });
    }
    if (this.options.captureContent) {
      const result = 'output' in data ? data.output : failed ? data.error : undefined;
      if (result !== undefined) call.span.setAttribute(GenAI.toolCallResult, jsonText(result));
      execution.toolAnswers.push({
        type: 'tool_call_response',
        id: stringOf(data.callId) ?? '',
        response: result ?? null,
      });
    }
    call.span.setAttribute(GenAI.providerName, this.providerOf(execution));
    call.span.end();
    execution.tools.delete(stringOf(data.callId) ?? '');
  }

  /** A child's span opens under the call that started it, as the tree places it. */
  private subagentStarted(event: CadreEventOf<'subagent_started'>): void {
    const parent = this.execution(event);
    const tree = this.trees.get(event.runId);
    const child = tree && nodeOf(tree, event.data.executionId);
    if (!child || child.parentId !== parent.executionId || this.executions.has(child.executionId))
      return;
    const call = child.spawnedBy === undefined ? undefined : parent.tools.get(child.spawnedBy);
    this.open(
      {
        runId: event.runId,
        executionId: child.executionId,
        depth: child.depth,
        agent: child.agent,
      },
      call?.context ?? parent.context,
      parent.conversationId,
    );
  }

  private subagentFinished(event: CadreEventOf<'subagent_finished'>): void {
    const child = this.executions.get(event.data.executionId);
    if (!child) return; // ended with its own final_result, as usual
    const reason = stringOf(event.data.terminate_reason);
    this.end(
      child,
      reason
        ? { kind: 'finished', result: { terminate_reason: reason, usage: event.data.usage } }
        : { kind: 'cut', reason: 'The subagent did not finish.' },
    );
  }

  private error(event: CadreEventOf<'error'>): void {
    const execution = this.execution(event);
    const code = stringOf(event.data.code) ?? stringOf(event.data.context) ?? 'error';
    const call = execution.tools.get(stringOf(event.data.callId) ?? '');
    if (call) {
      call.span.addEvent('cadre.error', { [GenAI.errorType]: code });
      return;
    }
    const chat = execution.chat;
    if (chat && chat.answeredAt === undefined) {
      // The model call itself failed.
      chat.span.setAttribute(GenAI.errorType, code);
      chat.span.setStatus({ code: SpanStatusCode.ERROR, message: event.message });
      this.endChat(execution);
      return;
    }
    execution.span.addEvent('cadre.error', { [GenAI.errorType]: code });
  }

  private finalResult(event: CadreEventOf<'final_result'>): void {
    const execution = this.execution(event);
    const data: Record<string, unknown> = event.data;
    const result = isRecord(data.result) ? data.result : data;
    this.end(execution, { kind: 'finished', result });
    // The root's end is the run's: whatever is still open was cut off.
    if (event.depth === 0) this.endRun(event, { kind: 'cut', reason: 'The run ended first.' });
  }

  /** Ends the run's open spans; a paused run goes on later under new spans and a tree of its own. */
  private endRun(event: CadreEvent, ending: Ending): void {
    for (const execution of this.deepestFirst((e) => e.runId === event.runId))
      this.end(execution, ending);
    if (event.depth === 0) this.trees.delete(event.runId);
  }

  private deepestFirst(which: (execution: Execution) => boolean): Execution[] {
    return [...this.executions.values()].filter(which).sort((a, b) => b.depth - a.depth);
  }

  /** The execution an event belongs to, opened on its first event (often run_started). */
  private execution(event: CadreEvent): Execution {
    const known = this.executions.get(event.executionId);
    if (known) return known;
    const parent = event.parentExecutionId
      ? this.executions.get(event.parentExecutionId)
      : undefined;
    return this.open(
      {
        runId: event.runId,
        executionId: event.executionId,
        depth: event.depth,
        agent: event.path.at(-1) ?? 'agent',
      },
      parent?.context ?? this.root,
      parent?.conversationId,
    );
  }

  private open(
    who: { runId: string; executionId: string; depth: number; agent: string },
    parentContext: Context,
    inheritedConversation: string | undefined,
  ): Execution {
    const conversationId = this.options.conversationId ?? inheritedConversation;
    const span = this.tracer.startSpan(
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
    const execution: Execution = {
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
    this.executions.set(who.executionId, execution);
    return execution;
  }

  /** The span of the call an event names, opened when the call started in an earlier process (resume). */
  private toolSpan(
    execution: Execution,
    event: CadreEventOf<'tool_call' | 'tool_result' | 'approval_required' | 'approval_resolved'>,
  ): ToolCall | undefined {
    const callId = stringOf(event.data.callId);
    if (!callId) return undefined;
    const known = execution.tools.get(callId);
    if (known) return known;
    const tool = stringOf(event.data.tool) ?? 'tool';
    const span = this.tracer.startSpan(
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

  private modelAttributes(execution: Execution): Attributes {
    return {
      ...(execution.model ? { [GenAI.requestModel]: execution.model } : {}),
      ...(execution.provider ? { [GenAI.providerName]: execution.provider } : {}),
      ...(execution.conversationId ? { [GenAI.conversationId]: execution.conversationId } : {}),
    };
  }

  /**
   * Ends the model call's span: at the time its answer was complete, with
   * the response's attributes and (captured) the answer, calls included, which
   * then joins the transcript with the tools' answers. A call cut off before
   * it answered gets `mark` instead.
   */
  private endChat(execution: Execution, mark?: string): void {
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
    chat.span.setAttribute(GenAI.providerName, this.providerOf(execution));
    if (this.options.captureContent) {
      const output = outputMessages(chat.text, finish, chat.reasoning, chat.calls);
      if (output) chat.span.setAttribute(GenAI.outputMessages, output);
      const said = assistantMessage(chat.text, finish, chat.reasoning, chat.calls);
      if (said) execution.transcript.push(said);
      if (execution.toolAnswers.length > 0)
        execution.transcript.push({ role: 'tool', parts: execution.toolAnswers.splice(0) });
    }
    chat.span.end(chat.answeredAt);
  }

  /** `gen_ai.provider.name`: as the model's responses named it, else read from the model's name. */
  private providerOf(execution: Execution): string {
    return execution.provider ?? providerOfModel(execution.model);
  }

  private end(execution: Execution, ending: Ending): void {
    this.executions.delete(execution.executionId);
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
    this.endChat(execution, mark);
    for (const call of execution.tools.values()) {
      call.span.setAttribute(mark, true);
      call.span.setAttribute(GenAI.providerName, this.providerOf(execution));
      call.span.end();
    }
    execution.tools.clear();
    const { span } = execution;
    switch (ending.kind) {
      case 'finished':
        this.outcome(execution, ending.result);
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
    span.setAttribute(GenAI.providerName, this.providerOf(execution));
    span.end();
  }

  /** The result's reason, usage and (captured) answer; any end but GOAL or a cancellation is an error. */
  private outcome(execution: Execution, result: Record<string, unknown>): void {
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
    if (this.options.captureContent) {
      const answer = stringOf(result.content) ?? stringOf(result.final_message) ?? '';
      const output = outputMessages(answer, reason === 'GOAL' ? 'stop' : reason.toLowerCase());
      if (output) span.setAttribute(GenAI.outputMessages, output);
    }
  }
}

const result = (ending: Extract<Ending, { kind: 'finished' }>): string =>
  stringOf(ending.result.terminate_reason) ?? 'GOAL';

const operation = (name: GenAIOperation): Attributes => ({ [GenAI.operationName]: name });

const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);
