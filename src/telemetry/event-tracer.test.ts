import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type {
  CadreEvent,
  EventDataMap,
  WellKnownEventType,
} from '../events/types.js';
import { createTelemetry, type TelemetryOptions } from './create-telemetry.js';
import { SpanTree } from './testing/test-support.js';

/** A fixture's data: each field it gives has its type's type; a reader must cope with the rest missing. */
type PartialData<T extends WellKnownEventType> = {
  [K in keyof EventDataMap[T]]?: EventDataMap[T][K] extends object
    ? Partial<EventDataMap[T][K]>
    : EventDataMap[T][K];
};

/** A provider without shutdown (as an application's own may be), so spans stay readable. */
function setUp(options: TelemetryOptions = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const telemetry = createTelemetry(
    { getTracer: (name) => provider.getTracer(name), forceFlush: () => provider.forceFlush() },
    options,
  );
  return { telemetry, tree: () => new SpanTree(exporter.getFinishedSpans()) };
}

const ROOT = { executionId: 'run-1', depth: 0, path: ['boss'] };
const CHILD = {
  executionId: 'child-1',
  parentExecutionId: 'run-1',
  depth: 1,
  path: ['boss', 'kid'],
};

function event<T extends WellKnownEventType>(
  type: T,
  data: PartialData<T> = {},
  where: Pick<CadreEvent, 'executionId' | 'depth' | 'path' | 'parentExecutionId'> = ROOT,
): CadreEvent {
  return {
    type,
    message: type,
    timestamp: new Date().toISOString(),
    data,
    runId: 'run-1',
    ...where,
    seq: 0,
  } as CadreEvent;
}

describe('spans from events', () => {
  it('names the provider and the conversation, from run_started or the observer', () => {
    const { telemetry, tree } = setUp();
    const sink = telemetry.observe();
    sink(
      event('run_started', {
        agent: 'boss',
        model: 'gemini-2.5-pro',
        provider: 'gemini',
        threadId: 't-9',
      }),
    );
    sink(event('turn_started', { turn: 1 }));
    sink(
      event('usage', { inputTokens: 7, outputTokens: 3, thoughtTokens: 0, cachedInputTokens: 4 }),
    );
    sink(event('final_result', { result: { terminate_reason: 'GOAL' } }));
    const chat = tree().one('chat gemini-2.5-pro');
    expect(chat.attributes).toMatchObject({
      'gen_ai.provider.name': 'gcp.gemini',
      'gen_ai.conversation.id': 't-9',
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.cache_read.input_tokens': 4,
    });

    const other = setUp();
    const observed = other.telemetry.observe(undefined, { conversationId: 'session-2' });
    observed(
      event('run_started', { agent: 'boss', model: 'm', provider: 'openai', threadId: 't-9' }),
    );
    observed(event('final_result', { result: { terminate_reason: 'GOAL' } }));
    expect(other.tree().one('invoke_agent boss').attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.conversation.id': 'session-2',
    });
  });

  it('opens an execution on whatever event comes first, and ignores event types it does not know', () => {
    const { telemetry, tree } = setUp();
    const sink = telemetry.observe();
    sink(event('warning', { withheld: ['x'] }));
    sink({ ...event('warning'), type: 'custom', name: 'something_new', data: { anything: true } });
    sink(event('run_started', { agent: 'boss', model: 'm' }));
    sink(event('final_result', { result: { terminate_reason: 'GOAL' } }));
    const root = tree().one('invoke_agent boss');
    expect(root.events.map((e) => e.name)).toEqual(['cadre.warning']);
    expect(root.attributes['gen_ai.request.model']).toBe('m');
  });

  it('records a tool result when the event carries one and content is captured', () => {
    const { telemetry, tree } = setUp({ captureContent: true });
    const sink = telemetry.observe();
    sink(event('tool_call', { callId: 'c1', tool: 'read', args: { path: 'a' } }));
    // `output` is beyond the type's own data: a writer may add it (OpenData).
    const output = { output: { text: 'hi' } };
    sink(event('tool_result', { callId: 'c1', tool: 'read', ok: true, ...output }));
    sink(event('tool_call', { callId: 'c2', tool: 'read', args: { path: 'b' } }));
    sink(event('tool_result', { callId: 'c2', tool: 'read', ok: false, error: 'no such file b' }));
    sink(event('final_result', { result: { terminate_reason: 'GOAL' } }));
    const [ok, failed] = tree().named('execute_tool read');
    expect(ok?.attributes['gen_ai.tool.call.result']).toBe('{"text":"hi"}');
    expect(failed?.attributes['gen_ai.tool.call.result']).toBe('no such file b');
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no such file b' });
  });

  it('places each child of one turn under the call its subagent_started names, in any order', () => {
    const { telemetry, tree } = setUp();
    const sink = telemetry.observe();
    const kid = (id: string) => ({ ...CHILD, executionId: id });
    sink(event('run_started', { agent: 'boss' }));
    sink(event('tool_call', { callId: 'c1', tool: 'kid', args: { prompt: 'one' } }));
    sink(event('tool_call', { callId: 'c2', tool: 'kid', args: { prompt: 'two' } }));
    for (const [id, callId] of [
      ['k2', 'c2'],
      ['k1', 'c1'],
    ] as const) {
      sink(event('subagent_started', { agent: 'kid', executionId: id, depth: 1, callId }));
      sink(event('final_result', { result: { terminate_reason: 'GOAL' } }, kid(id)));
    }
    sink(event('final_result', { result: { terminate_reason: 'GOAL' } }));
    const spans = tree();
    const callOf = (executionId: string): unknown => {
      const child = spans
        .named('invoke_agent kid')
        .find((s) => s.attributes['cadre.execution.id'] === executionId);
      return child && spans.parentOf(child)?.attributes['gen_ai.tool.call.id'];
    };
    expect([callOf('k1'), callOf('k2')]).toEqual(['c1', 'c2']);
  });

  it('ends a child that stopped without a result, and whatever the root left open', () => {
    const { telemetry, tree } = setUp();
    const sink = telemetry.observe();
    sink(event('run_started', { agent: 'boss' }));
    sink(event('tool_call', { callId: 'c1', tool: 'task', args: {} }));
    sink(event('subagent_started', { agent: 'kid', executionId: 'child-1', depth: 1 }));
    sink(event('run_started', { agent: 'kid' }, CHILD));
    sink(event('turn_started', { turn: 1 }, CHILD));
    sink(event('subagent_finished', { agent: 'kid', executionId: 'child-1' }));
    sink(event('tool_call', { callId: 'c2', tool: 'slow', args: {} }));
    sink(
      event('final_result', {
        result: { terminate_reason: 'TIMEOUT', final_message: 'Agent timed out.' },
      }),
    );
    const spans = tree();
    const kid = spans.one('invoke_agent kid');
    expect(spans.parentOf(kid)?.name).toBe('execute_tool task');
    expect(kid.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'The subagent did not finish.',
    });
    expect(spans.one('chat').attributes['cadre.interrupted']).toBe(true);
    expect(spans.one('execute_tool slow').attributes['cadre.interrupted']).toBe(true);
    const boss = spans.one('invoke_agent boss');
    expect(boss.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Agent timed out.' });
    expect(boss.attributes['error.type']).toBe('timeout');
  });

  it('ends open spans at shutdown, then only passes events on', async () => {
    const { telemetry, tree } = setUp();
    const seen: string[] = [];
    const sink = telemetry.observe((e) => seen.push(e.type));
    sink(event('run_started', { agent: 'boss' }));
    sink(event('tool_call', { callId: 'c1', tool: 'wait', args: {} }));
    await telemetry.shutdown();
    const spans = tree();
    expect(spans.one('invoke_agent boss').attributes['cadre.incomplete']).toBe(true);
    expect(spans.one('execute_tool wait').attributes['cadre.incomplete']).toBe(true);
    sink(event('final_result', { result: { terminate_reason: 'GOAL' } }));
    expect(tree().all).toHaveLength(2);
    expect(seen).toEqual(['run_started', 'tool_call', 'final_result']);
  });

  it('keeps the listener working when tracing fails', () => {
    const seen: string[] = [];
    const failing = createTelemetry({
      getTracer: () => ({
        startSpan: () => {
          throw new Error('no spans today');
        },
        startActiveSpan: () => {
          throw new Error('no spans today');
        },
      }),
    });
    const sink = failing.observe((e) => seen.push(e.type));
    sink(event('run_started', { agent: 'boss' }));
    sink(event('final_result', { result: { terminate_reason: 'GOAL' } }));
    expect(seen).toEqual(['run_started', 'final_result']);
  });
});
