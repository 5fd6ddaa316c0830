import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../definition/types.js';
import { OpenAIClient } from '../model/openai-client.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { run } from '../runtime/run-verbs.js';
import { startFakeOpenAI, type FakeServer } from '../testing/fake-openai-server.js';
import { echoTool } from '../testing/test-tools.js';
import { memoryTelemetry } from './testing/test-support.js';

const greeter: AgentDefinition = {
  name: 'greeter',
  description: 'Greets',
  promptConfig: { systemPrompt: 'Greet.' },
  modelConfig: { model: 'gpt-4.1' },
  toolConfig: { tools: ['echo'] },
};

/** Echo once, then answer: two model calls and one tool call. */
const TURNS = [
  {
    parts: [{ functionCall: { name: 'echo', args: { text: 'hi' } } }],
    usage: { input: 12, output: 3 },
  },
  { parts: [{ text: 'done' }], usage: { input: 20, output: 1 } },
];

let openai: FakeServer;
beforeAll(async () => {
  openai = await startFakeOpenAI({ turns: TURNS });
});
afterAll(async () => {
  await openai.close();
});

async function tracedRun(
  model: ConstructorParameters<typeof OpenAIClient>[0] | ScriptedModel,
  captureContent: boolean,
) {
  const { telemetry, spans } = memoryTelemetry({ captureContent });
  const result = await run(greeter, {
    model: model instanceof ScriptedModel ? model : new OpenAIClient(model),
    tools: [echoTool()],
    inputs: { prompt: 'say hi' },
    onEvent: telemetry.observe(),
  });
  expect(result.terminate_reason).toBe('GOAL');
  return spans();
}

describe('GenAI response attributes', () => {
  it('names the provider, response id and model, finish reasons and server of each chat span (real openai SDK, scripted fake server)', async () => {
    const tree = await tracedRun({ apiKey: 'sk-test', baseUrl: `${openai.baseUrl}/v1` }, false);
    const chats = tree.named('chat gpt-4.1');
    expect(chats.map((s) => s.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.provider.name': 'openai',
        'gen_ai.response.id': 'chatcmpl-fake-0',
        'gen_ai.response.model': 'gpt-4.1',
        'gen_ai.response.finish_reasons': ['tool_call'],
        'server.address': '127.0.0.1',
        'server.port': Number(new URL(openai.baseUrl).port),
      }),
      expect.objectContaining({
        'gen_ai.response.id': 'chatcmpl-fake-1',
        'gen_ai.response.finish_reasons': ['stop'],
      }),
    ]);
    for (const span of tree.all) expect(span.attributes['gen_ai.provider.name']).toBe('openai');
    // The model call's span ends when its answer is complete, before the tool runs.
    const tool = tree.one('execute_tool echo');
    const first = chats[0];
    expect(first && first.endTime[0] * 1e9 + first.endTime[1]).toBeLessThanOrEqual(
      tool.endTime[0] * 1e9 + tool.endTime[1],
    );
  });

  it('puts gen_ai.provider.name on every span when no response named one (scripted model)', async () => {
    const model = new ScriptedModel([
      { parts: [{ functionCall: { name: 'echo', args: { text: 'hi' } } }] },
      { parts: [{ text: 'done' }] },
    ]);
    const tree = await tracedRun(model, false);
    expect(tree.all.length).toBe(4);
    for (const span of tree.all) expect(span.attributes['gen_ai.provider.name']).toBe('openai');
    expect(
      tree.named('chat gpt-4.1').map((s) => s.attributes['gen_ai.response.finish_reasons']),
    ).toEqual([['tool_call'], ['stop']]);
  });

  it('records input messages, tool-call parts and tool answers as the conventions shape them when content is captured (scripted model)', async () => {
    const model = new ScriptedModel([
      { parts: [{ functionCall: { name: 'echo', args: { text: 'hi' }, id: 'c1' } }] },
      { parts: [{ text: 'done' }] },
    ]);
    const tree = await tracedRun(model, true);
    const [first, second] = tree.named('chat gpt-4.1');
    const json = (value: unknown): unknown => JSON.parse(String(value));
    expect(json(first?.attributes['gen_ai.input.messages'])).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'say hi' }] },
    ]);
    const call = {
      type: 'tool_call',
      id: 'c1',
      name: 'echo',
      arguments: { text: 'hi' },
    };
    expect(json(first?.attributes['gen_ai.output.messages'])).toEqual([
      { role: 'assistant', parts: [call], finish_reason: 'tool_call' },
    ]);
    expect(json(second?.attributes['gen_ai.input.messages'])).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'say hi' }] },
      { role: 'assistant', parts: [call], finish_reason: 'tool_call' },
      {
        role: 'tool',
        parts: [
          // Tool results carry no output in the run's events (only a failure's error).
          { type: 'tool_call_response', id: 'c1', response: null },
        ],
      },
    ]);
    expect(json(second?.attributes['gen_ai.output.messages'])).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'done' }], finish_reason: 'stop' },
    ]);
  });
});
