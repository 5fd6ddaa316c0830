import type { Server } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attribute,
  receiver,
  spansOf,
  type Export,
} from '../../telemetry/testing/otlp-receiver.js';
import { tinyLlamaGguf } from '../../testing/tiny-gguf.js';
import { openAiClient } from './openai-compat/testing/openai-test-server.js';
import { startAgentsTestServer, type AgentsTestServer } from './testing/real-test-server.js';

// The model is generated here: random weights, a byte-level vocabulary, and a bias towards "l".
const AGENT =
  'name: local-greeter\ndescription: Greets, on a model on this machine.\n' +
  'modelConfig:\n  model: local:./tiny.gguf\npromptConfig:\n  systemPrompt: Be brief.\n';

let collector: { url: string; server: Server; exports: Export[] };
let live: AgentsTestServer<'ann'>;
let client: OpenAI;
let closed = false;

beforeAll(async () => {
  collector = await receiver();
  live = await startAgentsTestServer({
    prefix: 'cadre-local-serve-',
    agents: { 'local-greeter': AGENT },
    users: ['ann'],
    run: {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_SERVICE_NAME: 'cadre-local',
        // One thread on a shared machine; a small window keeps the random model's answer short.
        CADRE_LOCAL_THREADS: '1',
        CADRE_LOCAL_CONTEXT: '1536',
      },
    },
  });
  // Loaded on the first request, relative to the server's folder.
  await writeFile(join(live.dir, 'tiny.gguf'), tinyLlamaGguf({ contextLength: 1536, favour: 'l' }));
  client = openAiClient(live.server.url, live.users.ann.token);
});

afterAll(async () => {
  if (!closed) await live.close();
  await new Promise((resolve) => collector.server.close(resolve));
});

describe('a local: model agent under cadre serve (generated random-weight GGUF, OTLP receiver on loopback)', () => {
  it('answers /v1/chat/completions and exports its model call with the local model and provider', async () => {
    const completion = await client.chat.completions.create({
      model: 'local-greeter',
      messages: [{ role: 'user', content: 'Hello there.' }],
    });
    expect(completion.choices[0]?.message.content).toMatch(/^l+$/);
    expect(completion.usage?.prompt_tokens).toBeGreaterThan('Hello there.'.length);
    // Closing the server flushes its spans to the receiver.
    closed = true;
    await live.close();
    const spans = spansOf(collector.exports);
    const agent = spans.find((s) => s.name === 'invoke_agent local-greeter');
    const chat = spans.find((s) => s.name.startsWith('chat '));
    expect(agent).toBeDefined();
    // The model's label is what follows `local:`; the provider is the local one.
    expect(chat?.name).toBe('chat ./tiny.gguf');
    const of = (key: string) => attribute(chat?.attributes ?? [], key);
    expect(of('gen_ai.request.model')).toBe('./tiny.gguf');
    expect(of('gen_ai.response.model')).toBe('./tiny.gguf');
    expect(of('gen_ai.provider.name')).toBe('local');
    expect(of('gen_ai.usage.output_tokens')).toBe(completion.usage?.completion_tokens);
    expect(attribute(agent?.attributes ?? [], 'gen_ai.provider.name')).toBe('local');
    expect(chat?.parentSpanId).toBe(agent?.spanId);
  });
});
