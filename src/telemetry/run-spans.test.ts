import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../contracts/agent.js';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { approveTools, type ConfirmationHandler } from '../contracts/confirmation.js';
import {
  resume as resumeDefinition,
  run as runDefinition,
  start as startDefinition,
} from '../runtime/run-verbs.js';
import type { AgentDefinition } from '../definition/types.js';
import { echoTool, sendTool } from '../testing/test-tools.js';
import { defineTool } from '../tools/types.js';
import { memoryTelemetry } from './testing/test-support.js';

const def = (name: string, tools: string[]): AgentDefinition => ({
  name,
  description: `The ${name} agent`,
  promptConfig: { systemPrompt: `ROLE:${name}` },
  toolConfig: { tools },
});

function catalog(...definitions: AgentDefinition[]): AgentLookup {
  const entries = new Map<string, AgentEntry>(
    definitions.map((d) => [d.name, { kind: 'definition', definition: d }]),
  );
  return { get: (name) => entries.get(name), names: () => [...entries.keys()] };
}

const roleOf = (request: ModelRequest): string =>
  /ROLE:(\S+)/.exec(request.systemInstruction ?? '')?.[1] ?? '?';
/** The tool whose answer the model got last, if its last message was one. */
const lastAnswered = (request: ModelRequest): string | undefined => {
  const part = request.messages.at(-1)?.parts.find((p) => p.kind === 'function_response');
  return part?.kind === 'function_response' ? part.name : undefined;
};
const call = (
  name: string,
  args: Record<string, unknown>,
  usage: ScriptedTurn['usage'],
): ScriptedTurn => ({ parts: [{ functionCall: { name, args } }], usage });
const say = (text: string, usage: ScriptedTurn['usage']): ScriptedTurn => ({
  parts: [{ thought: 'thinking it over' }, { text }],
  usage,
});

const reader = def('reader', []);
const lead = def('lead', ['echo', 'reader']);

/** lead: echo, then ask reader, then answer; reader answers at once. */
const leadScript = (): ScriptedModel =>
  new ScriptedModel((request) => {
    if (roleOf(request) === 'reader') return say('it says hi', { inputTokens: 5, outputTokens: 1 });
    switch (lastAnswered(request)) {
      case undefined:
        return call('echo', { text: 'secret-arg' }, { inputTokens: 10, outputTokens: 2 });
      case 'echo':
        return call('reader', { prompt: 'read a.txt' }, { inputTokens: 20, outputTokens: 3 });
      default:
        return say('The reader says hi.', {
          inputTokens: 30,
          outputTokens: 4,
          thoughtTokens: 6,
        });
    }
  });

const runLead = (observe: ReturnType<typeof memoryTelemetry>['telemetry']) =>
  runDefinition(lead, {
    model: leadScript(),
    tools: [echoTool()],
    agents: catalog(reader, lead),
    inputs: { prompt: 'what does a.txt say?' },
    onEvent: observe.observe(),
  });

const CONTENT_KEYS = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'cadre.approval.preview',
];

describe('traces of a run (scripted model responses)', () => {
  it('builds the span tree: agent, model calls, tool calls, and the subagent under its call', async () => {
    const { telemetry, spans } = memoryTelemetry();
    const result = await runLead(telemetry);
    expect(result.terminate_reason).toBe('GOAL');
    const tree = await spans();

    const root = tree.one('invoke_agent lead');
    expect(root.parentSpanContext).toBeUndefined();
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'lead',
      'gen_ai.request.model': 'gemini-2.5-flash',
      'gen_ai.usage.input_tokens': 60,
      'gen_ai.usage.output_tokens': 15,
      'gen_ai.usage.reasoning.output_tokens': 6,
      'cadre.run.id': result.run_id,
      'cadre.terminate_reason': 'GOAL',
    });
    expect(root.status.code).toBe(SpanStatusCode.UNSET);

    const children = tree.childrenOf(root).map((s) => s.name);
    expect(children.sort()).toEqual(
      [
        'chat gemini-2.5-flash',
        'chat gemini-2.5-flash',
        'chat gemini-2.5-flash',
        'execute_tool echo',
        'execute_tool reader',
      ].sort(),
    );
    const chats = tree.childrenOf(root).filter((s) => s.name.startsWith('chat '));
    expect(chats.map((s) => s.attributes['gen_ai.usage.input_tokens'])).toEqual([10, 20, 30]);
    expect(chats[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gemini-2.5-flash',
      'gen_ai.usage.output_tokens': 2,
      'cadre.turn': 1,
    });

    const echo = tree.one('execute_tool echo');
    expect(echo.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.id': 'call_1_1',
    });
    expect(echo.status.code).toBe(SpanStatusCode.UNSET);

    // The child's agent span sits under the tool call that started it.
    const child = tree.one('invoke_agent reader');
    expect(tree.parentOf(child)?.name).toBe('execute_tool reader');
    expect(child.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(child.attributes).toMatchObject({
      'gen_ai.agent.name': 'reader',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 1,
      'cadre.terminate_reason': 'GOAL',
    });
    expect(tree.childrenOf(child).map((s) => s.name)).toEqual(['chat gemini-2.5-flash']);
    // One trace, every span ended, none orphaned.
    expect(tree.all).toHaveLength(8);
    for (const span of tree.all) {
      expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
      if (span !== root) expect(tree.parentOf(span)).toBeDefined();
    }

    for (const key of CONTENT_KEYS) expect(tree.attributeKeys()).not.toContain(key);
    expect(JSON.stringify(tree.all.map((s) => s.attributes))).not.toContain('secret-arg');
    await telemetry.shutdown();
  });

  it('records prompts, answers, arguments and results only when content capture is on', async () => {
    const { telemetry, spans } = memoryTelemetry({ captureContent: true });
    await runLead(telemetry);
    const tree = await spans();
    const root = tree.one('invoke_agent lead');
    expect(JSON.parse(String(root.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'what does a.txt say?' }] },
    ]);
    expect(JSON.parse(String(root.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: 'The reader says hi.' }],
        finish_reason: 'stop',
      },
    ]);
    const lastChat = tree
      .childrenOf(root)
      .filter((s) => s.name.startsWith('chat '))
      .at(-1);
    expect(JSON.parse(String(lastChat?.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', content: 'thinking it over' },
          { type: 'text', content: 'The reader says hi.' },
        ],
        finish_reason: 'stop',
      },
    ]);
    expect(tree.one('execute_tool echo').attributes['gen_ai.tool.call.arguments']).toBe(
      '{"text":"secret-arg"}',
    );
    await telemetry.shutdown();
  });

  it('marks a failed run, its failed model call and a failed tool call as errors', async () => {
    const { telemetry, spans } = memoryTelemetry();
    const broken = defineTool<Record<string, unknown>>({
      name: 'broken',
      description: 'Always fails.',
      inputSchema: { type: 'object' },
      sideEffect: false,
      execute: () => Promise.reject(new Error('disk on fire')),
    });
    // Turn 1 calls the tool; turn 2 has no script: the model call fails.
    const model = new ScriptedModel([{ parts: [{ functionCall: { name: 'broken', args: {} } }] }]);
    const result = await runDefinition(def('fragile', ['broken']), {
      model,
      tools: [broken],
      inputs: { prompt: 'go' },
      onEvent: telemetry.observe(),
    });
    expect(result.terminate_reason).toBe('ERROR');
    const tree = await spans();
    const root = tree.one('invoke_agent fragile');
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.status.message).toMatch(/no turn 2/);
    expect(root.attributes).toMatchObject({
      'cadre.terminate_reason': 'ERROR',
      'error.type': 'model_error',
    });
    const tool = tree.one('execute_tool broken');
    expect(tool.status.code).toBe(SpanStatusCode.ERROR);
    expect(tool.status.message).toBeUndefined(); // may quote arguments: content
    expect(tool.attributes['error.type']).toBe('tool_error');
    const failedChat = tree.named('chat gemini-2.5-flash').at(-1);
    expect(failedChat?.status.code).toBe(SpanStatusCode.ERROR);
    expect(failedChat?.attributes['error.type']).toBe('model_error');
    await telemetry.shutdown();
  });

  it('ends every span of a cancelled run, marked as interrupted', async () => {
    const { telemetry, spans } = memoryTelemetry();
    const controller = new AbortController();
    // Cancelled while the model is thinking: as soon as it is asked, not after a timer.
    const model = new ScriptedModel(() => {
      queueMicrotask(() => controller.abort());
      return { parts: [{ text: 'too late' }], delayMs: 10_000 };
    });
    const run = runDefinition(def('slow', []), {
      model,
      inputs: { prompt: 'go' },
      signal: controller.signal,
      onEvent: telemetry.observe(() => undefined),
    });
    expect((await run).terminate_reason).toBe('ABORTED');
    const tree = await spans();
    const root = tree.one('invoke_agent slow');
    expect(root.attributes).toMatchObject({
      'cadre.terminate_reason': 'ABORTED',
      'cadre.interrupted': true,
    });
    expect(root.status.code).toBe(SpanStatusCode.UNSET);
    expect(tree.one('chat gemini-2.5-flash').attributes['cadre.interrupted']).toBe(true);
    await telemetry.shutdown();
  });

  it('puts approvals on the tool span, ends the spans of a paused run, and traces the resumed part', async () => {
    const { telemetry, spans } = memoryTelemetry({ captureContent: true });
    const mailer = def('mailer', ['send']);
    const model = (): ScriptedModel =>
      new ScriptedModel((request) =>
        lastAnswered(request)
          ? { parts: [{ text: 'sent' }] }
          : { parts: [{ functionCall: { name: 'send', args: { to: 'ann' } } }] },
      );
    const askLater: ConfirmationHandler = () => Promise.resolve({ kind: 'pause' });
    const outcome = await startDefinition(mailer, {
      model: model(),
      tools: [sendTool()],
      inputs: { prompt: 'mail ann' },
      confirm: askLater,
      onEvent: telemetry.observe(undefined, { conversationId: 'thread-7' }),
    });
    if (outcome.status !== 'paused') throw new Error('expected a pause');
    const first = await spans();
    const paused = first.one('invoke_agent mailer');
    expect(paused.attributes).toMatchObject({
      'cadre.paused': true,
      'gen_ai.conversation.id': 'thread-7',
    });
    expect(paused.attributes['cadre.terminate_reason']).toBeUndefined();
    const waiting = first.one('execute_tool send');
    expect(waiting.attributes['cadre.paused']).toBe(true);
    expect(waiting.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'cadre.approval.requested',
        {
          'cadre.approval.reason': expect.any(String),
          'cadre.approval.preview': 'Send a message to ann',
        },
      ],
    ]);

    const resumed = await resumeDefinition(
      mailer,
      outcome.state,
      { [outcome.pending[0]?.callId ?? '']: { kind: 'approve' } },
      { model: model(), tools: [sendTool()], onEvent: telemetry.observe() },
    );
    expect(resumed.status).toBe('finished');
    const all = await spans();
    const second = all.named('invoke_agent mailer').find((s) => s !== paused);
    expect(second?.attributes).toMatchObject({
      'cadre.resumed': true,
      'cadre.terminate_reason': 'GOAL',
    });
    const decided = all.named('execute_tool send').find((s) => s !== waiting);
    expect(decided && all.parentOf(decided)).toBe(second);
    expect(decided?.events.map((e) => [e.name, e.attributes])).toEqual([
      ['cadre.approval.decided', { 'cadre.approval.decision': 'approve' }],
    ]);
    expect(decided?.attributes['gen_ai.tool.call.id']).toBe(outcome.pending[0]?.callId);
    await telemetry.shutdown();
  });

  it('records a call approved on the spot as requested then decided', async () => {
    const { telemetry, spans } = memoryTelemetry();
    const model = new ScriptedModel([
      { parts: [{ functionCall: { name: 'send', args: { to: 'ann' } } }] },
      { parts: [{ text: 'sent' }] },
    ]);
    await runDefinition(def('mailer', ['send']), {
      model,
      tools: [sendTool()],
      inputs: { prompt: 'mail ann' },
      confirm: approveTools(['send']),
      onEvent: telemetry.observe(),
    });
    const send = (await spans()).one('execute_tool send');
    expect(send.events.map((e) => e.name)).toEqual([
      'cadre.approval.requested',
      'cadre.approval.decided',
    ]);
    expect(send.events[0]?.attributes?.['cadre.approval.preview']).toBeUndefined();
    expect(send.status.code).toBe(SpanStatusCode.UNSET);
    await telemetry.shutdown();
  });
});
