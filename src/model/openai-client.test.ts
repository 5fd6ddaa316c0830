import { collectChunks } from '../testing/collect-chunks.js';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isAbortError, ModelError } from '../errors/index.js';
import { startFakeOpenAI } from '../testing/fake-openai-server.js';
import type { FakeServer, FakeServerOptions } from '../testing/fake-openai-server.js';
import { OpenAIClient } from './openai-client.js';
import { INVALID_JSON_ARGS_KEY } from './openai-tool-calls.js';
import type { RetryPolicy } from './retry.js';
import type { ModelChunk, ModelRequest } from './types.js';
import { ManualClock } from '../util/testing/manual-clock.js';

const API_KEY = 'sk-test-openai-key-0001';

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

interface Harness {
  client: OpenAIClient;
  server: FakeServer;
  sleeps: number[];
}

async function harness(options: FakeServerOptions, retry: RetryPolicy = {}): Promise<Harness> {
  const server = await startFakeOpenAI(options);
  fake = server;
  const sleeps: number[] = [];
  const client = new OpenAIClient({
    apiKey: API_KEY,
    baseUrl: `${server.baseUrl}/v1`,
    retry: { clock: { sleep: async (ms) => void sleeps.push(ms) }, random: () => 0.5, ...retry },
  });
  return { client, server, sleeps };
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'gpt-4.1',
    messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Hello?' }] }],
    tools: [],
    config: {},
    ...overrides,
  };
}

const run = collectChunks;

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function bodyOf(server: FakeServer, index = 0): Record<string, unknown> {
  return server.requests[index]?.body as Record<string, unknown>;
}

describe('OpenAIClient against a fake Chat Completions server (real openai SDK)', () => {
  describe('streaming', () => {
    it('streams text in order across 2+ chunks, then exactly one usage chunk', async () => {
      const { client, server } = await harness({
        turns: [{ parts: [{ text: 'Hello, world!' }], usage: { input: 7, output: 3 } }],
      });
      const { chunks, error } = await run(client, request());
      expect(error).toBeUndefined();
      const texts = chunks.filter((c) => c.type === 'text');
      expect(texts.length).toBeGreaterThanOrEqual(2);
      expect(texts.map((c) => c.text).join('')).toBe('Hello, world!');
      expect(chunks.at(-1)).toEqual({
        type: 'usage',
        usage: {
          inputTokens: 7,
          outputTokens: 3,
          thoughtTokens: 0,
          totalTokens: 10,
          // What the server said about the response, for traces.
          response: {
            provider: 'openai',
            endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/),
            id: 'chatcmpl-fake-0',
            model: 'gpt-4.1',
          },
        },
      });
      expect(chunks.filter((c) => c.type === 'usage')).toHaveLength(1);
      // Why it ended is its own chunk, just before the usage.
      expect(chunks.at(-2)).toEqual({ type: 'finish', reason: 'stop' });
      expect(server.requests[0]?.path).toBe('/v1/chat/completions');
      expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    });

    it('reassembles tool-call argument fragments into parsed args, keeping ids and order', async () => {
      const { client } = await harness({
        turns: [
          {
            parts: [
              {
                functionCall: {
                  id: 'call_a',
                  name: 'read_file',
                  args: { path: 'notes/a long name.txt', lines: [1, 20] },
                },
              },
              { functionCall: { id: 'call_b', name: 'ls', args: { dir: '.' } } },
            ],
          },
        ],
      });
      const { chunks } = await run(client, request());
      const calls = chunks.flatMap((c) => (c.type === 'function_call' ? [c.call] : []));
      expect(calls).toEqual([
        {
          kind: 'function_call',
          id: 'call_a',
          name: 'read_file',
          args: { path: 'notes/a long name.txt', lines: [1, 20] },
        },
        { kind: 'function_call', id: 'call_b', name: 'ls', args: { dir: '.' } },
      ]);
    });

    it('passes invalid JSON arguments on as { __invalid_json__: raw } so the executor can reject them', async () => {
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

    it('yields reasoning_content deltas as thoughts and counts reasoning_tokens as thoughtTokens', async () => {
      const { client } = await harness({
        turns: [
          {
            parts: [{ thought: 'Think first.' }, { text: 'Answer.' }],
            usage: { input: 4, output: 2, thoughts: 6 },
          },
        ],
      });
      const { chunks } = await run(client, request());
      expect(
        chunks
          .filter((c) => c.type === 'thought')
          .map((c) => c.text)
          .join(''),
      ).toBe('Think first.');
      expect(chunks.at(-1)).toMatchObject({
        type: 'usage',
        usage: { inputTokens: 4, outputTokens: 2, thoughtTokens: 6, totalTokens: 12 },
      });
    });
  });

  describe('request', () => {
    it('sends stop sequences as stop, and no top_k (Chat Completions has none)', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'ok' }] }] });
      await run(client, request({ config: { topK: 40, stopSequences: ['END'] } }));
      expect(bodyOf(server)).toMatchObject({ stop: ['END'] });
      expect(bodyOf(server)).not.toHaveProperty('top_k');
    });

    it('streams with include_usage and sends temperature, top_p, max tokens and tools as type function', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'ok' }] }] });
      const parameters = { type: 'object', properties: { dir: { type: 'string' } } };
      await run(
        client,
        request({
          systemInstruction: 'Be brief.',
          tools: [{ name: 'ls', description: 'Lists a directory.', parameters }],
          config: { temperature: 0.2, topP: 0.8, maxOutputTokens: 128 },
        }),
      );
      expect(bodyOf(server)).toMatchObject({
        model: 'gpt-4.1',
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.2,
        top_p: 0.8,
        max_completion_tokens: 128,
        tools: [
          {
            type: 'function',
            function: { name: 'ls', description: 'Lists a directory.', parameters },
          },
        ],
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello?' },
        ],
      });
    });

    it('sends function responses as role tool with tool_call_id and drops thoughts', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'ok' }] }] });
      await run(
        client,
        request({
          messages: [
            { role: 'user', parts: [{ kind: 'text', text: 'List.' }] },
            {
              role: 'model',
              parts: [
                { kind: 'thought', text: 'private reasoning' },
                { kind: 'text', text: 'Listing.' },
                { kind: 'function_call', id: 'call_1', name: 'ls', args: { dir: '.' } },
              ],
            },
            {
              role: 'user',
              parts: [
                {
                  kind: 'function_response',
                  id: 'call_1',
                  name: 'ls',
                  response: { output: ['a.txt'] },
                },
                { kind: 'text', text: 'And now?' },
              ],
            },
          ],
        }),
      );
      const messages = bodyOf(server)['messages'];
      expect(messages).toEqual([
        { role: 'user', content: 'List.' },
        {
          role: 'assistant',
          content: 'Listing.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"dir":"."}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '["a.txt"]' },
        { role: 'user', content: 'And now?' },
      ]);
      expect(JSON.stringify(messages)).not.toContain('private reasoning');
    });
  });

  describe('retries', () => {
    it('retries a 429 after the Retry-After header (1 s → 1000 ms) and yields a retry chunk', async () => {
      const { client, server, sleeps } = await harness({
        failFirst: [{ status: 429, retryAfter: '1' }],
        turns: [{ parts: [{ text: 'after the wait' }] }],
      });
      const { chunks, error } = await run(client, request());
      expect(error).toBeUndefined();
      expect(chunks[0]).toMatchObject({
        type: 'retry',
        attempt: 1,
        delayMs: 1000,
        reason: expect.stringMatching(/HTTP 429/),
      });
      expect(sleeps).toEqual([1000]);
      expect(server.requests).toHaveLength(2);
    });

    it('retries a 500 once, then succeeds (the SDK does not retry on its own)', async () => {
      const { client, server, sleeps } = await harness({
        failFirst: [{ status: 500 }],
        turns: [{ parts: [{ text: 'ok' }] }],
      });
      const { error } = await run(client, request());
      expect(error).toBeUndefined();
      expect(sleeps).toHaveLength(1);
      expect(server.requests).toHaveLength(2);
    });

    it('turns a 400 into a ModelError with a safe message and does not retry', async () => {
      const { client, server } = await harness({
        failFirst: [
          {
            status: 400,
            body: {
              error: { message: "Invalid value for 'temperature'.", type: 'invalid_request_error' },
            },
          },
        ],
        turns: [{ parts: [{ text: 'never' }] }],
      });
      const { error } = await run(client, request());
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).message).toBe(
        "OpenAI request failed (HTTP 400): Invalid value for 'temperature'.",
      );
      expect((error as ModelError).message).not.toContain(API_KEY);
      expect(server.requests).toHaveLength(1);
    });

    it('retries a refused connection, then reports it as a network ModelError', async () => {
      const client = new OpenAIClient({
        apiKey: API_KEY,
        baseUrl: `http://127.0.0.1:${await closedPort()}/v1`,
        retry: { maxAttempts: 2, clock: { sleep: async () => undefined } },
      });
      const { chunks, error } = await run(client, request());
      expect(chunks.filter((c) => c.type === 'retry')).toHaveLength(1);
      expect((error as ModelError).message).toMatch(
        /^OpenAI request failed \(network error\): .*ECONNREFUSED/,
      );
    });
  });

  describe('abort', () => {
    it('rejects with an abort error when aborted mid-stream (the SDK alone would end quietly)', async () => {
      // The role-only first event yields nothing, so the first text arrives after one pause.
      const clock = new ManualClock();
      const { client } = await harness({
        turns: [{ parts: [{ text: 'one two three four' }] }],
        chunkDelayMs: 1_000,
        clock,
      });
      // The stream pauses on a clock that lets one pause pass (the role-only event yields nothing,
      // the first text follows it) and then stands still: only the abort can end the wait.
      void clock.release(1, 1_000);
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
  });
});
