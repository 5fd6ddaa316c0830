import { collectChunks } from '../testing/collect-chunks.js';
import { afterEach, describe, expect, it } from 'vitest';
import { isAbortError, ModelError } from '../errors/index.js';
import { startFakeGemini } from '../testing/fake-gemini-server.js';
import type { FakeServer, FakeServerOptions } from '../testing/fake-gemini-server.js';
import { GeminiClient } from './gemini-client.js';
import type { RetryPolicy } from './retry.js';
import type { ModelChunk, ModelRequest } from './types.js';
import { ManualClock } from '../util/testing/manual-clock.js';

const API_KEY = 'test-gemini-key-0001';

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

interface Harness {
  client: GeminiClient;
  server: FakeServer;
  sleeps: number[];
}

async function harness(options: FakeServerOptions, retry: RetryPolicy = {}): Promise<Harness> {
  const server = await startFakeGemini(options);
  fake = server;
  const sleeps: number[] = [];
  const client = new GeminiClient({
    apiKey: API_KEY,
    baseUrl: server.baseUrl,
    retry: { clock: { sleep: async (ms) => void sleeps.push(ms) }, random: () => 0.5, ...retry },
  });
  return { client, server, sleeps };
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'gemini-2.5-flash',
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

describe('GeminiClient against a fake Gemini server (real @google/genai SDK)', () => {
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
            provider: 'gemini',
            endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/),
            id: 'fake-response',
            model: 'gemini-2.5-flash',
          },
        },
      });
      expect(chunks.filter((c) => c.type === 'usage')).toHaveLength(1);
      // Why it ended is its own chunk, just before the usage.
      expect(chunks.at(-2)).toEqual({ type: 'finish', reason: 'STOP' });
      expect(server.requests[0]?.path).toMatch(
        /\/models\/gemini-2\.5-flash:streamGenerateContent$/,
      );
      expect(server.requests[0]?.headers['x-goog-api-key']).toBe(API_KEY);
    });

    it('yields function calls with their args and a generated call_ id when Gemini sends none', async () => {
      const { client } = await harness({
        turns: [
          {
            parts: [
              { functionCall: { name: 'read_file', args: { path: 'a.txt' } } },
              { functionCall: { name: 'read_file', args: { path: 'b.txt' } } },
            ],
          },
        ],
      });
      const { chunks } = await run(client, request());
      const calls = chunks.flatMap((c) => (c.type === 'function_call' ? [c.call] : []));
      expect(calls.map((c) => [c.name, c.args])).toEqual([
        ['read_file', { path: 'a.txt' }],
        ['read_file', { path: 'b.txt' }],
      ]);
      expect(calls.every((c) => /^call_/.test(c.id))).toBe(true);
      expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    });

    it('keeps the function call id Gemini sent', async () => {
      const { client } = await harness({
        turns: [{ parts: [{ functionCall: { id: 'gem-7', name: 'ls', args: {} } }] }],
      });
      const { chunks } = await run(client, request());
      expect(chunks.find((c) => c.type === 'function_call')).toMatchObject({
        call: { id: 'gem-7', name: 'ls', args: {} },
      });
    });

    it('yields thought chunks before the answer and reports thoughtTokens', async () => {
      const { client } = await harness({
        turns: [
          {
            parts: [{ thought: 'Let me think.' }, { text: 'Done.' }],
            usage: { input: 5, output: 2, thoughts: 9 },
          },
        ],
      });
      const { chunks } = await run(client, request({ config: { thinkingBudget: 1024 } }));
      const thoughts = chunks.filter((c) => c.type === 'thought');
      expect(thoughts.map((c) => c.text).join('')).toBe('Let me think.');
      expect(chunks.findIndex((c) => c.type === 'thought')).toBeLessThan(
        chunks.findIndex((c) => c.type === 'text'),
      );
      expect(chunks.at(-1)).toMatchObject({
        type: 'usage',
        usage: { inputTokens: 5, outputTokens: 2, thoughtTokens: 9, totalTokens: 16 },
      });
    });

    it('passes thoughtSignature out as signature on thoughts and function calls', async () => {
      const { client } = await harness({
        turns: [
          {
            parts: [
              { thought: 'hmm', signature: 'sig-thought' },
              { functionCall: { name: 'ls', args: {} }, signature: 'sig-call' },
            ],
          },
        ],
      });
      const { chunks } = await run(client, request());
      expect(chunks.filter((c) => c.type === 'thought').at(-1)).toMatchObject({
        signature: 'sig-thought',
      });
      expect(chunks.find((c) => c.type === 'function_call')).toMatchObject({
        call: { signature: 'sig-call' },
      });
    });
  });

  describe('request', () => {
    it('sends temperature, topP, maxOutputTokens and thinkingConfig with includeThoughts', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'ok' }] }] });
      await run(
        client,
        request({
          config: { temperature: 0.3, topP: 0.9, maxOutputTokens: 256, thinkingBudget: 2048 },
        }),
      );
      expect(bodyOf(server)['generationConfig']).toEqual({
        temperature: 0.3,
        topP: 0.9,
        maxOutputTokens: 256,
        thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
      });
    });

    it('sends topK and stopSequences in generationConfig', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'ok' }] }] });
      await run(client, request({ config: { topK: 40, stopSequences: ['END', '###'] } }));
      expect(bodyOf(server)['generationConfig']).toEqual({
        topK: 40,
        stopSequences: ['END', '###'],
      });
    });

    it('sends the system instruction and tools as functionDeclarations with parametersJsonSchema', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'ok' }] }] });
      const parameters = {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
      };
      await run(
        client,
        request({
          systemInstruction: 'You are terse.',
          tools: [{ name: 'read_file', description: 'Reads a file.', parameters }],
        }),
      );
      const body = bodyOf(server);
      expect(body['systemInstruction']).toMatchObject({ parts: [{ text: 'You are terse.' }] });
      expect(body['tools']).toEqual([
        {
          functionDeclarations: [
            { name: 'read_file', description: 'Reads a file.', parametersJsonSchema: parameters },
          ],
        },
      ]);
    });

    it('maps history: thoughts, signed function calls with ids, function responses', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'ok' }] }] });
      await run(
        client,
        request({
          messages: [
            { role: 'user', parts: [{ kind: 'text', text: 'List files.' }] },
            {
              role: 'model',
              parts: [
                { kind: 'thought', text: 'Use ls.', signature: 'sig-1' },
                {
                  kind: 'function_call',
                  id: 'call_x_1',
                  name: 'ls',
                  args: { dir: '.' },
                  signature: 'sig-2',
                },
              ],
            },
            {
              role: 'user',
              parts: [
                {
                  kind: 'function_response',
                  id: 'call_x_1',
                  name: 'ls',
                  response: { output: ['a.txt'] },
                },
                {
                  kind: 'function_response',
                  id: 'call_x_2',
                  name: 'rm',
                  response: { error: 'denied' },
                },
              ],
            },
          ],
        }),
      );
      expect(bodyOf(server)['contents']).toEqual([
        { role: 'user', parts: [{ text: 'List files.' }] },
        {
          role: 'model',
          parts: [
            { text: 'Use ls.', thought: true, thoughtSignature: 'sig-1' },
            {
              functionCall: { id: 'call_x_1', name: 'ls', args: { dir: '.' } },
              thoughtSignature: 'sig-2',
            },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call_x_1', name: 'ls', response: { output: ['a.txt'] } } },
            { functionResponse: { id: 'call_x_2', name: 'rm', response: { error: 'denied' } } },
          ],
        },
      ]);
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
      expect(
        chunks
          .filter((c) => c.type === 'text')
          .map((c) => c.text)
          .join(''),
      ).toBe('after the wait');
    });

    it('honours the retryDelay Gemini puts in a 429 body', async () => {
      const body = {
        error: {
          code: 429,
          message: 'Resource exhausted.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }],
        },
      };
      const { client, sleeps } = await harness({
        failFirst: [{ status: 429, body }],
        turns: [{ parts: [{ text: 'ok' }] }],
      });
      await run(client, request());
      expect(sleeps).toEqual([2000]);
    });

    it('retries a 500 with jittered exponential backoff, then succeeds', async () => {
      const { client, server, sleeps } = await harness(
        { failFirst: [{ status: 500 }], turns: [{ parts: [{ text: 'recovered' }] }] },
        { baseDelayMs: 400 },
      );
      const { chunks, error } = await run(client, request());
      expect(error).toBeUndefined();
      expect(sleeps).toEqual([300]); // 400/2 + 400/2 * 0.5
      expect(chunks[0]).toMatchObject({ type: 'retry', attempt: 1, delayMs: 300 });
      expect(server.requests).toHaveLength(2);
    });

    it('turns a 400 into a ModelError with a short, key-free message and does not retry', async () => {
      const leaked = 'AIzaSyD-0123456789abcdefghijklmnopqrstu';
      const { client, server, sleeps } = await harness({
        failFirst: [
          {
            status: 400,
            body: {
              error: {
                code: 400,
                message: `API key not valid: ${leaked}`,
                status: 'INVALID_ARGUMENT',
              },
            },
          },
        ],
        turns: [{ parts: [{ text: 'never' }] }],
      });
      const { chunks, error } = await run(
        client,
        request({ systemInstruction: 'SECRET PROMPT BODY' }),
      );
      expect(error).toBeInstanceOf(ModelError);
      const modelError = error as ModelError;
      expect(modelError.message).toMatch(/^Gemini request failed \(HTTP 400\): API key not valid/);
      expect(modelError.message).not.toContain(leaked);
      expect(modelError.message).not.toContain(API_KEY);
      expect(modelError.message).not.toContain('SECRET PROMPT BODY');
      expect(modelError.status).toBe(400);
      expect(modelError.retryable).toBe(false);
      expect(chunks).toEqual([]);
      expect(sleeps).toEqual([]);
      expect(server.requests).toHaveLength(1);
    });

    it('gives up after maxAttempts with a ModelError that says so', async () => {
      const { client, server } = await harness(
        {
          failFirst: [{ status: 503 }, { status: 503 }, { status: 503 }],
          turns: [{ parts: [{ text: 'never' }] }],
        },
        { maxAttempts: 3 },
      );
      const { chunks, error } = await run(client, request());
      expect((error as ModelError).message).toMatch(/HTTP 503.*gave up after 3 attempts/);
      expect((error as ModelError).retryable).toBe(true);
      expect(chunks.filter((c) => c.type === 'retry')).toHaveLength(2);
      expect(server.requests).toHaveLength(3);
    });
  });

  describe('abort', () => {
    it('rejects with an abort error when aborted mid-stream', async () => {
      const clock = new ManualClock();
      const { client } = await harness({
        turns: [{ parts: [{ text: 'one two three four' }] }],
        chunkDelayMs: 1_000,
        clock,
      });
      // The stream pauses on a clock that never moves after the first event: only the abort
      // can end the wait for the rest.
      void clock.release(0, 1_000);
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

    it('sends nothing when the signal is already aborted', async () => {
      const { client, server } = await harness({ turns: [{ parts: [{ text: 'never' }] }] });
      const { error } = await run(client, request(), AbortSignal.abort());
      expect(isAbortError(error)).toBe(true);
      expect(server.requests).toHaveLength(0);
    });

    it('stops waiting for a retry as soon as the signal aborts', async () => {
      const server = await startFakeGemini({
        failFirst: [{ status: 429, retryAfter: '30' }],
        turns: [],
      });
      fake = server;
      // The 30 s wait is on a clock that never moves: only the abort can end it.
      const clock = new ManualClock();
      const client = new GeminiClient({
        apiKey: API_KEY,
        baseUrl: server.baseUrl,
        retry: { clock },
      });
      const controller = new AbortController();
      const error = await (async () => {
        for await (const chunk of client.generate(request(), controller.signal)) {
          if (chunk.type === 'retry') {
            // Aborts once the wait has begun (the retry is announced before it).
            void clock.waiting().then(() => controller.abort());
          }
        }
      })().catch((e: unknown) => e);
      expect(isAbortError(error)).toBe(true);
      expect(clock.pending).toBe(0);
      expect(server.requests).toHaveLength(1);
    });
  });
});
