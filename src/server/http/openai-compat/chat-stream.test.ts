import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../../errors/model-error.js';
import type { RunHooks } from '../../run-service-types.js';
import {
  event,
  fakeService,
  response,
  startTestServer,
  type TestServer,
} from '../testing/test-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const agents = () =>
  Promise.resolve([{ name: 'greeter', description: 'Greets.', origin: 'project' }]);

async function streamFrom(
  run: (request: unknown, hooks?: RunHooks) => Promise<ReturnType<typeof response>>,
  includeUsage = false,
): Promise<{ chunks: ChatCompletionChunk[]; error: unknown }> {
  server = await startTestServer(fakeService({ listAgents: agents, run }));
  const client = new OpenAI({ apiKey: 'ann-token', baseURL: `${server.url}/v1`, maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: 'greeter',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
  });
  const chunks: ChatCompletionChunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks, error: undefined };
  } catch (error) {
    return { chunks, error };
  }
}

describe('streamed chat completions over a fake RunService', () => {
  it('sends a failure after the first chunk as an error event the SDK raises', async () => {
    const { chunks, error } = await streamFrom(async (_request, hooks) => {
      hooks?.onStarted?.({ runId: 'r1', threadId: 't1' });
      hooks?.onEvent?.(event('text_delta', { text: 'Hel' }, 2));
      throw new ModelError('The model provider failed.', { details: { raw: 'SECRET' } });
    });
    expect(chunks.map((c) => c.choices[0]?.delta.content)).toEqual(['', 'Hel']);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({
      error: { code: 'model_error', type: 'server_error', message: 'The model provider failed.' },
    });
    expect(JSON.stringify(error)).not.toContain('SECRET');
  });

  it('rethrows a failure before the first chunk with its status', async () => {
    server = await startTestServer(
      fakeService({ listAgents: agents, run: () => Promise.reject(new ModelError('Down.')) }),
    );
    const client = new OpenAI({ apiKey: 'ann-token', baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(
      client.chat.completions.create({
        model: 'greeter',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      }),
    ).rejects.toMatchObject({ status: 502, code: 'model_error' });
  });

  it('sends an answer that was never streamed as text (a structured result) before the finish', async () => {
    const { chunks, error } = await streamFrom(async (_request, hooks) => {
      hooks?.onStarted?.({ runId: 'r1', threadId: 't1' });
      hooks?.onEvent?.(event('tool_call', { tool: 'complete_task' }, 2));
      return response({ summary: '{"score": 3}' });
    });
    expect(error).toBeUndefined();
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? null)).toEqual([
      '',
      '{"score": 3}',
      null,
    ]);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks[0]?.id).toBe('chatcmpl-r1');
  });

  it("leaves a subagent's text out of the answer", async () => {
    const { chunks } = await streamFrom(async (_request, hooks) => {
      hooks?.onStarted?.({ runId: 'r1', threadId: 't1' });
      hooks?.onEvent?.({ ...event('text_delta', { text: 'inner' }, 2), depth: 1 });
      hooks?.onEvent?.(event('text_delta', { text: 'Outer.' }, 3));
      return response({ summary: 'Outer.' });
    });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Outer.');
  });

  it('sums the usage of the whole run tree, prompt-cache reads included', async () => {
    const usage = (depth: number, cachedInputTokens?: number) => ({
      ...event(
        'usage',
        {
          inputTokens: 100,
          outputTokens: 10,
          thoughtTokens: 5,
          totalTokens: 115,
          ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
        },
        2,
      ),
      depth,
    });
    const { chunks } = await streamFrom(async (_request, hooks) => {
      hooks?.onStarted?.({ runId: 'r1', threadId: 't1' });
      hooks?.onEvent?.(usage(0, 60));
      hooks?.onEvent?.(usage(1));
      return response({ summary: 'Done.' });
    }, true);
    expect(chunks.at(-1)?.usage).toEqual({
      prompt_tokens: 200,
      completion_tokens: 30,
      total_tokens: 230,
      completion_tokens_details: { reasoning_tokens: 10 },
      prompt_tokens_details: { cached_tokens: 60 },
    });
  });
});
