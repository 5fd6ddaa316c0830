import { afterAll, describe, expect, it } from 'vitest';
import { collectChunks } from '../testing/collect-chunks.js';
import { startFakeAnthropic } from '../testing/fake-anthropic-server.js';
import { startFakeGemini } from '../testing/fake-gemini-server.js';
import { startFakeOpenAI } from '../testing/fake-openai-server.js';
import type { FakeServer } from '../testing/fake-turn.js';
import { AnthropicClient } from './anthropic-client.js';
import { GeminiClient } from './gemini-client.js';
import { OpenAIClient } from './openai-client.js';
import type { ModelClient, ModelRequest } from './types.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const servers: FakeServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const request = (model: string, traced: boolean): ModelRequest => ({
  model,
  messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Hello?' }] }],
  tools: [],
  config: {},
  ...(traced ? { traceHeaders: { traceparent: TRACEPARENT, tracestate: 'cadre=1' } } : {}),
});

const turns = [{ parts: [{ text: 'Hi.' }] }, { parts: [{ text: 'Hi again.' }] }];

/** Each provider's real SDK against its fake server: one call traced, one not. */
async function headersSent(client: ModelClient, server: FakeServer, model: string) {
  servers.push(server);
  for (const traced of [true, false]) {
    const { error } = await collectChunks(client, request(model, traced));
    expect(error).toBeUndefined();
  }
  return server.requests.map((r) => [r.headers.traceparent, r.headers.tracestate]);
}

describe("the model call carries the run's trace context (each provider's real SDK, fake server on loopback)", () => {
  it('OpenAI', async () => {
    const server = await startFakeOpenAI({ turns });
    const client = new OpenAIClient({ apiKey: 'sk-test', baseUrl: `${server.baseUrl}/v1` });
    expect(await headersSent(client, server, 'gpt-4.1')).toEqual([
      [TRACEPARENT, 'cadre=1'],
      [undefined, undefined],
    ]);
  });

  it('Anthropic', async () => {
    const server = await startFakeAnthropic({ turns });
    const client = new AnthropicClient({ apiKey: 'sk-ant-test', baseUrl: server.baseUrl });
    expect(await headersSent(client, server, 'claude-sonnet-5-5')).toEqual([
      [TRACEPARENT, 'cadre=1'],
      [undefined, undefined],
    ]);
  });

  it('Gemini', async () => {
    const server = await startFakeGemini({ turns });
    const client = new GeminiClient({ apiKey: 'test-key', baseUrl: server.baseUrl });
    expect(await headersSent(client, server, 'gemini-2.5-flash')).toEqual([
      [TRACEPARENT, 'cadre=1'],
      [undefined, undefined],
    ]);
  });
});
