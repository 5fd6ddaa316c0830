import { collectChunks } from '../testing/collect-chunks.js';
import { afterEach, describe, expect, it } from 'vitest';
import { isAbortError, ModelError } from '../errors/index.js';
import { startFakeAnthropic } from '../testing/fake-anthropic-server.js';
import type { FakeAnthropicOptions, FakeServer } from '../testing/fake-anthropic-server.js';
import { AnthropicClient } from './anthropic-client.js';
import type { AnthropicClientOptions } from './anthropic-client.js';
import { INVALID_JSON_ARGS_KEY } from './openai-tool-calls.js';
import type { RetryPolicy } from './retry.js';
import type { Message, ModelChunk, ModelRequest } from './types.js';
import { ManualClock } from '../util/testing/manual-clock.js';

const API_KEY = 'sk-ant-test-key-0001';

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

interface Harness {
  client: AnthropicClient;
  server: FakeServer;
  sleeps: number[];
}

async function harness(
  options: FakeAnthropicOptions,
  retry: RetryPolicy = {},
  clientOptions: Partial<AnthropicClientOptions> = {},
): Promise<Harness> {
  const server = await startFakeAnthropic(options);
  fake = server;
  const sleeps: number[] = [];
  const client = new AnthropicClient({
    apiKey: API_KEY,
    baseUrl: server.baseUrl,
    retry: { clock: { sleep: async (ms) => void sleeps.push(ms) }, random: () => 0.5, ...retry },
    ...clientOptions,
  });
  return { client, server, sleeps };
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-sonnet-5-5',
    messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Hello?' }] }],
    tools: [],
    config: {},
    ...overrides,
  };
}

const run = collectChunks;

function bodyOf(server: FakeServer, index = 0): Record<string, unknown> {
  return server.requests[index]?.body as Record<string, unknown>;
}

const joined = (chunks: ModelChunk[], type: 'text' | 'thought'): string =>
  chunks.flatMap((c) => (c.type === type ? [c.text] : [])).join('');

const lsTool = {
  name: 'ls',
  description: 'Lists a directory.',
  parameters: { type: 'object', properties: { dir: { type: 'string' } } },
};

describe('AnthropicClient against a fake Messages endpoint (real @anthropic-ai/sdk)', () => {
  describe('streaming', () => {
    it('streams text in order across 2+ chunks, then exactly one usage chunk', async () => {
      const { client, server } = await harness({
        turns: [{ parts: [{ text: 'Hello, world!' }], usage: { input: 7, output: 3 } }],
      });
      const { chunks, error } = await run(client, request());
      expect(error).toBeUndefined();
      expect(chunks.filter((c) => c.type === 'text').length).toBeGreaterThanOrEqual(2);
      expect(joined(chunks, 'text')).toBe('Hello, world!');
      expect(chunks.at(-1)).toEqual({
        type: 'usage',
        usage: {
          inputTokens: 7,
          outputTokens: 3,
          thoughtTokens: 0,
          totalTokens: 10,
          cachedInputTokens: 0,
          // What the server said about the response, for traces.
          response: expect.objectContaining({
            provider: 'anthropic',
            endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/),
          }),
        },
      });
      expect(chunks.filter((c) => c.type === 'usage')).toHaveLength(1);
      // Why it ended is its own chunk, just before the usage.
      expect(chunks.at(-2)).toEqual({ type: 'finish', reason: 'end_turn' });
      expect(server.requests[0]?.path).toBe('/v1/messages');
      expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
      expect(server.requests[0]?.headers['anthropic-version']).toEqual(expect.any(String));
    });

    it('yields tool_use blocks as function calls with their ids and the JSON fragments parsed', async () => {
      const { client } = await harness({
        turns: [
          {
            parts: [
              { text: 'Looking.' },
              {
                functionCall: {
                  id: 'toolu_a',
                  name: 'read_file',
                  args: { path: 'notes/a long name.txt', lines: [1, 20] },
                },
              },
              { functionCall: { id: 'toolu_b', name: 'ls', args: {} } },
            ],
          },
        ],
      });
      const { chunks } = await run(client, request());
      expect(chunks.flatMap((c) => (c.type === 'function_call' ? [c.call] : []))).toEqual([
        {
          kind: 'function_call',
          id: 'toolu_a',
          name: 'read_file',
          args: { path: 'notes/a long name.txt', lines: [1, 20] },
        },
        { kind: 'function_call', id: 'toolu_b', name: 'ls', args: {} },
      ]);
    });

    it('passes invalid JSON input on as { __invalid_json__: raw } so the executor can reject it', async () => {
      const raw = '{"path": "a.txt",';
      const { client } = await harness({
        turns: [{ parts: [{ functionCall: { name: 'read_file', args: {}, rawArguments: raw } }] }],
      });
      const { chunks, error } = await run(client, request());
      expect(error).toBeUndefined();
      expect(chunks.find((c) => c.type === 'function_call')).toMatchObject({
        call: { name: 'read_file', args: { [INVALID_JSON_ARGS_KEY]: raw } },
      });
    });

    it('yields thinking as thoughts with the signature on the block’s last chunk, and splits thinking tokens out', async () => {
      const { client } = await harness({
        turns: [
          {
            parts: [
              { thought: 'First, think.', signature: 'c2lnLTE=' },
              { thought: 'Then more.', signature: 'c2lnLTI=' },
              { text: 'Answer.' },
            ],
            usage: { input: 4, output: 2, thoughts: 6 },
          },
        ],
      });
      const { chunks } = await run(client, request());
      const thoughts = chunks.filter((c) => c.type === 'thought');
      expect(thoughts.map((c) => c.text).join('')).toBe('First, think.Then more.');
      // One signed chunk per thinking block, each the last of its block.
      expect(thoughts.map((c) => c.signature ?? null)).toEqual([
        null,
        'c2lnLTE=',
        null,
        'c2lnLTI=',
      ]);
      expect(chunks.at(-1)).toMatchObject({
        type: 'usage',
        usage: { inputTokens: 4, outputTokens: 2, thoughtTokens: 6, totalTokens: 12 },
      });
    });

    it('counts cache reads and writes as input, with the reads in cachedInputTokens', async () => {
      const { client } = await harness({
        turns: [
          {
            parts: [{ text: 'ok' }],
            usage: { input: 10, output: 2 },
            cache: { read: 1200, write: 300 },
          },
        ],
      });
      const { chunks } = await run(client, request());
      expect(chunks.at(-1)).toMatchObject({
        type: 'usage',
        usage: {
          inputTokens: 1510,
          outputTokens: 2,
          thoughtTokens: 0,
          totalTokens: 1512,
          cachedInputTokens: 1200,
        },
      });
    });

    it('turns a refusal stop into a ModelError that is not retried', async () => {
      const { client, server } = await harness({
        turns: [{ parts: [{ text: 'I can' }], stopReason: 'refusal' }],
      });
      const { chunks, error } = await run(client, request());
      expect(joined(chunks, 'text')).toBe('I can');
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).message).toMatch(/declined.*refusal/);
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('request', () => {
    it('caches the system prompt and the tool list, and sends sampling, max_tokens 8192 and stream', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'ok' }] }] });
      const grep = { ...lsTool, name: 'grep', description: 'Searches.' };
      await run(
        client,
        request({
          systemInstruction: 'Be brief.',
          tools: [lsTool, grep],
          config: { temperature: 0.2 },
        }),
      );
      const body = bodyOf(server);
      expect(body).toMatchObject({
        model: 'claude-sonnet-5-5',
        stream: true,
        max_tokens: 8192,
        temperature: 0.2,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        tools: [
          { name: 'ls', description: 'Lists a directory.', input_schema: lsTool.parameters },
          {
            name: 'grep',
            input_schema: lsTool.parameters,
            cache_control: { type: 'ephemeral' },
          },
        ],
      });
      expect((body['tools'] as Array<Record<string, unknown>>)[0]).not.toHaveProperty(
        'cache_control',
      );
      expect(body).not.toHaveProperty('thinking');
      expect(body).not.toHaveProperty('top_p');
    });

    it('sends top_p when no temperature is set, and max_tokens from the request or the client', async () => {
      const { client, server } = await harness(
        { turns: [{ parts: [{ text: 'a' }] }, { parts: [{ text: 'b' }] }] },
        {},
        { maxTokens: 2000 },
      );
      await run(client, request({ config: { topP: 0.8 } }));
      await run(client, request({ config: { maxOutputTokens: 64 } }));
      expect(bodyOf(server, 0)).toMatchObject({ top_p: 0.8, max_tokens: 2000 });
      expect(bodyOf(server, 1)).toMatchObject({ max_tokens: 64 });
    });

    it('sends top_k and stop_sequences; top_k not with thinking on, which the API refuses', async () => {
      const { client, server } = await harness({
        turns: [{ parts: [{ text: 'a' }] }, { parts: [{ text: 'b' }] }],
      });
      await run(client, request({ config: { topK: 20, stopSequences: ['END'] } }));
      await run(
        client,
        request({ config: { topK: 20, stopSequences: ['END'], thinkingBudget: 2048 } }),
      );
      expect(bodyOf(server, 0)).toMatchObject({ top_k: 20, stop_sequences: ['END'] });
      expect(bodyOf(server, 1)).toMatchObject({ stop_sequences: ['END'] });
      expect(bodyOf(server, 1)).not.toHaveProperty('top_k');
    });

    it('asks for thinking with the budget, and leaves out a temperature thinking does not allow', async () => {
      const { client, server } = await harness({
        turns: [{ parts: [{ text: 'a' }] }, { parts: [{ text: 'b' }] }, { parts: [{ text: 'c' }] }],
      });
      await run(client, request({ config: { thinkingBudget: 2048, temperature: 0.3 } }));
      await run(client, request({ config: { thinkingBudget: -1 } }));
      await run(client, request({ config: { thinkingBudget: 0, temperature: 0.3 } }));
      expect(bodyOf(server, 0)).toMatchObject({
        thinking: { type: 'enabled', budget_tokens: 2048 },
        max_tokens: 8192,
      });
      expect(bodyOf(server, 0)).not.toHaveProperty('temperature');
      expect(bodyOf(server, 1)).toMatchObject({ thinking: { type: 'adaptive' } });
      expect(bodyOf(server, 2)).toMatchObject({ thinking: { type: 'disabled' }, temperature: 0.3 });
    });

    it('round-trips a tool call: tool_use and signed thinking back in the assistant turn, tool_result in the user turn', async () => {
      const { client, server } = await harness({
        turns: [
          {
            parts: [
              { thought: 'Need a listing.', signature: 'c2lnLXg=' },
              { text: 'Listing.' },
              { functionCall: { id: 'toolu_1', name: 'ls', args: { dir: '.' } } },
            ],
          },
          { parts: [{ text: 'Two files.' }] },
        ],
      });
      const first = request({ tools: [lsTool], config: { thinkingBudget: 1024 } });
      const { chunks } = await run(client, first);
      // What the executor keeps: fragments merged per kind until a signature seals a part.
      const modelTurn: Message = {
        role: 'model',
        parts: [
          {
            kind: 'thought',
            text: joined(chunks, 'thought'),
            signature: 'c2lnLXg=',
          },
          { kind: 'text', text: joined(chunks, 'text') },
          ...chunks.flatMap((c) => (c.type === 'function_call' ? [c.call] : [])),
        ],
      };
      const results: Message = {
        role: 'user',
        parts: [
          {
            kind: 'function_response',
            id: 'toolu_1',
            name: 'ls',
            response: { output: ['a', 'b'] },
          },
        ],
      };
      const second = await run(client, {
        ...first,
        messages: [...first.messages, modelTurn, results],
      });
      expect(joined(second.chunks, 'text')).toBe('Two files.');
      expect(bodyOf(server, 1)['messages']).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Hello?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need a listing.', signature: 'c2lnLXg=' },
            { type: 'text', text: 'Listing.' },
            { type: 'tool_use', id: 'toolu_1', name: 'ls', input: { dir: '.' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: '["a","b"]',
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
      ]);
    });

    it('marks failed tool results is_error and puts results before the user’s text', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'ok' }] }] });
      await run(
        client,
        request({
          messages: [
            { role: 'user', parts: [{ kind: 'text', text: 'Go.' }] },
            {
              role: 'model',
              parts: [
                { kind: 'thought', text: 'unsigned, from another provider' },
                { kind: 'function_call', id: 'toolu_9', name: 'ls', args: {} },
              ],
            },
            {
              role: 'user',
              parts: [
                { kind: 'text', text: 'Also this.' },
                {
                  kind: 'function_response',
                  id: 'toolu_9',
                  name: 'ls',
                  response: { error: 'denied' },
                },
              ],
            },
          ],
        }),
      );
      const messages = bodyOf(server)['messages'] as Array<{ content: unknown[] }>;
      expect(messages[1]?.content).toEqual([
        { type: 'tool_use', id: 'toolu_9', name: 'ls', input: {} },
      ]);
      expect(messages[2]?.content).toEqual([
        { type: 'tool_result', tool_use_id: 'toolu_9', content: 'denied', is_error: true },
        { type: 'text', text: 'Also this.', cache_control: { type: 'ephemeral' } },
      ]);
    });
  });

  describe('retries', () => {
    it('retries a 429 after its Retry-After (2 s → 2000 ms) and yields a retry chunk', async () => {
      const { client, server, sleeps } = await harness({
        failFirst: [{ status: 429, retryAfter: '2' }],
        turns: [{ parts: [{ text: 'after the wait' }] }],
      });
      const { chunks, error } = await run(client, request());
      expect(error).toBeUndefined();
      expect(chunks[0]).toMatchObject({
        type: 'retry',
        attempt: 1,
        delayMs: 2000,
        reason: expect.stringMatching(/^HTTP 429: .*scripted failure/),
      });
      expect(sleeps).toEqual([2000]);
      expect(joined(chunks, 'text')).toBe('after the wait');
      expect(server.requests).toHaveLength(2); // the SDK did not retry on its own
    });

    it('retries 529 overloaded with backoff, and an overloaded_error event that arrives before any output', async () => {
      const { client, server, sleeps } = await harness({
        failFirst: [{ status: 529 }],
        turns: [
          {
            parts: [{ text: 'lost' }],
            streamError: { type: 'overloaded_error', message: 'Overloaded' },
          },
          { parts: [{ text: 'ok' }] },
        ],
      });
      const { chunks, error } = await run(client, request());
      expect(error).toBeUndefined();
      expect(chunks.filter((c) => c.type === 'retry').map((c) => c.reason)).toEqual([
        expect.stringMatching(/^HTTP 529: /),
        'HTTP 529: Overloaded',
      ]);
      expect(sleeps).toHaveLength(2);
      expect(joined(chunks, 'text')).toBe('ok');
      expect(server.requests).toHaveLength(3);
    });

    it('turns a 400 into a ModelError with the API’s message, without retrying', async () => {
      const { client, server } = await harness({
        failFirst: [
          {
            status: 400,
            body: {
              type: 'error',
              error: { type: 'invalid_request_error', message: 'max_tokens: too large' },
            },
          },
        ],
        turns: [{ parts: [{ text: 'never' }] }],
      });
      const { error } = await run(client, request());
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).message).toBe(
        'Anthropic request failed (HTTP 400): max_tokens: too large',
      );
      expect((error as ModelError).status).toBe(400);
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('abort', () => {
    it('rejects with an abort error when aborted mid-stream (the SDK alone would end quietly)', async () => {
      const clock = new ManualClock();
      const { client } = await harness({
        turns: [{ parts: [{ text: 'one two three four' }] }],
        chunkDelayMs: 1_000,
        clock,
      });
      // The stream pauses on a clock that lets three pauses pass (message_start, ping and the
      // block's start yield nothing; its first text delta follows), then stands still: only the
      // abort can end the wait for the rest.
      void clock.release(3, 1_000);
      const controller = new AbortController();
      const chunks: ModelChunk[] = [];
      const error = await (async () => {
        for await (const chunk of client.generate(request(), controller.signal)) {
          chunks.push(chunk);
          controller.abort();
        }
      })().catch((e: unknown) => e);
      expect(isAbortError(error)).toBe(true);
      expect(chunks).toHaveLength(1);
    });

    it('does not start when the signal has already fired', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'x' }] }] });
      const { error } = await run(client, request(), AbortSignal.abort());
      expect(isAbortError(error)).toBe(true);
      expect(server.requests).toHaveLength(0);
    });
  });
});
