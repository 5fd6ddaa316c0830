import { SpanStatusCode, type Attributes, type Context, type Tracer } from '@opentelemetry/api';
import {
  EMPTY_TREE,
  nodeOf,
  reduceExecutionTree,
  type ExecutionTree,
} from '../events/execution-tree.js';
import type { TraceCarrier } from '../contracts/trace-carrier.js';
import type { CadreEvent, CadreEventOf } from '../events/types.js';
import { endExecution, type Ending } from './execution-ending.js';
import { Cadre, GenAI, providerName } from './gen-ai-attributes.js';
import { inputMessage, isRecord } from './message-content.js';
import { endChat, recordDelta, recordUsage, startChat } from './model-call-spans.js';
import { recordApproval, recordToolCall, recordToolResult } from './tool-call-spans.js';
import { carrierOf, rootContext } from './trace-context.js';
import {
  modelAttributes,
  openExecution,
  type Execution,
  type ExecutionIdentity,
} from './traced-execution.js';
import { numberOf, stringOf, type EventTracerOptions, type Tracing } from './tracing.js';

export type { EventTracerOptions } from './tracing.js';

/**
 * Turns one event stream into spans, per the GenAI conventions: an
 * `invoke_agent` span per execution (a child's under the call that started
 * it), `chat` spans for model calls, `execute_tool` spans for tool calls.
 * Every span ends, whether the run finishes, fails, is cancelled or pauses.
 * The spans of each kind are made in their own file; this class routes events and keeps the
 * open executions.
 */
export class EventTracer {
  private readonly executions = new Map<string, Execution>();
  /** Each open run's execution tree: who started whom, and from which call. */
  private readonly trees = new Map<string, ExecutionTree>();
  private readonly root: Context;
  private readonly tracing: Tracing;

  constructor(tracer: Tracer, options: EventTracerOptions) {
    this.root = rootContext(options.parent);
    this.tracing = { tracer, options };
  }

  private get options(): EventTracerOptions {
    return this.tracing.options;
  }

  /**
   * The trace context an execution's outgoing calls carry (its own span),
   * so the service it calls continues this trace; undefined when the
   * execution has no open span.
   */
  carrier(executionId: string): TraceCarrier | undefined {
    return carrierOf(this.executions.get(executionId)?.span);
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
    recordDelta(this.executions.get(event.executionId), event);
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
    execution.span.setAttributes(modelAttributes(execution));
    if (this.options.captureContent) {
      const asked = inputMessage(data.inputs ?? data.input);
      execution.transcript = [asked];
      execution.span.setAttribute(GenAI.inputMessages, JSON.stringify([asked]));
    }
  }

  private turnStarted(event: CadreEventOf<'turn_started'>): void {
    startChat(this.tracing, this.execution(event), event);
  }

  private usage(event: CadreEventOf<'usage'>): void {
    recordUsage(this.tracing, this.execution(event), event);
  }

  private toolCall(event: CadreEventOf<'tool_call'>): void {
    recordToolCall(this.tracing, this.execution(event), event);
  }

  private approval(
    event: CadreEventOf<'approval_required' | 'approval_resolved'>,
    name: string,
    attributes: Attributes,
  ): void {
    recordApproval(this.tracing, this.execution(event), event, name, attributes);
  }

  private toolResult(event: CadreEventOf<'tool_result'>): void {
    recordToolResult(this.tracing, this.execution(event), event);
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
      endChat(this.tracing, execution);
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
    who: ExecutionIdentity,
    parentContext: Context,
    inheritedConversation: string | undefined,
  ): Execution {
    const execution = openExecution(this.tracing, who, parentContext, inheritedConversation);
    this.executions.set(who.executionId, execution);
    return execution;
  }

  private end(execution: Execution, ending: Ending): void {
    this.executions.delete(execution.executionId);
    endExecution(this.tracing, execution, ending);
  }
}
