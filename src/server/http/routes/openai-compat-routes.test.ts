import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../errors/model-error.js';
import { ScriptedModel, type ScriptedTurn } from '../../../model/scripted-model.js';
import type { ModelRequest } from '../../../model/types.js';
import type { CadreOutcome } from '../openai-compat/completion-shapes.js';
import {
  openAiClient,
  startOpenAiTestServer,
} from '../openai-compat/testing/openai-test-server.js';
import type { AgentsTestServer } from '../testing/real-test-server.js';
import { startTestServer } from '../testing/test-support.js';

let live: AgentsTestServer<'ann'>;
let client: OpenAI;

/** The last user text the model was given (tool answers aside): the prompt of the run. */
const promptOf = (r: ModelRequest): string => {
  const texts = r.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])));
  return texts.at(-1) ?? '';
};
const answeredTool = (r: ModelRequest): boolean =>
  r.messages.flatMap((m) => m.parts).some((p) => p.kind === 'function_response');

/**
 * "hello" answers in three pieces with usage; "look around" lists the
 * workspace, then answers; "write <path>" asks to write a file (an
 * approval); "slow" answers after a while; "break" fails the model; other
 * prompts are echoed.
 */
const model = new ScriptedModel((r): ScriptedTurn => {
  const prompt = promptOf(r);
  if (prompt === 'hello')
    return {
      parts: [{ text: 'Hello' }, { text: ', ' }, { text: 'world!' }],
      usage: { inputTokens: 10, outputTokens: 5, thoughtTokens: 2 },
    };
  if (prompt === 'look around')
    return answeredTool(r)
      ? { parts: [{ text: 'Nothing much here.' }], usage: { inputTokens: 20, outputTokens: 4 } }
      : {
          parts: [{ text: 'Let me look.' }, { functionCall: { name: 'ls', args: {} } }],
          usage: { inputTokens: 8, outputTokens: 3 },
        };
  if (prompt === 'slow') return { parts: [{ text: 'finally' }], delayMs: 600 };
  if (prompt === 'break') throw new ModelError('the scripted model broke', { retryable: false });
  const path = /^write (\S+)/.exec(prompt)?.[1];
  if (path && !answeredTool(r))
    return { parts: [{ functionCall: { name: 'write_file', args: { path, content: 'hi' } } }] };
  return { parts: [{ text: `You said: ${prompt}` }] };
});

beforeAll(async () => {
  ({ live, client } = await startOpenAiTestServer(
    'cadre-openai-compat-',
    'name: greeter\ndescription: Greets you.\ntoolConfig:\n  tools: [ls]\npromptConfig:\n  systemPrompt: Greet.\n',
    model,
  ));
});
afterAll(() => live.close());

const cadreOf = (value: object): CadreOutcome => (value as { cadre: CadreOutcome }).cadre;
const ask = (modelName: string, content: string) =>
  client.chat.completions.create({ model: modelName, messages: [{ role: 'user', content }] });

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}
const textOf = (chunks: ChatCompletionChunk[]): string =>
  chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

describe('/v1 under cadre serve (openai SDK, real run service, SQLite, scripted model)', () => {
  it('lists the runnable agents as models, the default one as cadre', async () => {
    const models = [];
    for await (const m of client.models.list()) models.push(m);
    expect(models.map((m) => m.id)).toEqual(['cadre', 'greeter', 'writer']);
    expect(models[1]).toMatchObject({ object: 'model', owned_by: 'cadre' });
    expect(await client.models.retrieve('writer')).toMatchObject({ id: 'writer' });
    await expect(client.models.retrieve('deep_research')).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
  });

  it("answers with the run's result, its usage, and the run behind it", async () => {
    const completion = await ask('greeter', 'hello');
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('greeter');
    expect(completion.choices).toEqual([
      expect.objectContaining({
        index: 0,
        message: expect.objectContaining({ role: 'assistant', content: 'Hello, world!' }),
        finish_reason: 'stop',
      }),
    ]);
    expect(completion.usage).toMatchObject({
      prompt_tokens: 10,
      completion_tokens: 7,
      total_tokens: 17,
      completion_tokens_details: { reasoning_tokens: 2 },
    });
    const cadre = cadreOf(completion);
    expect(completion.id).toBe(`chatcmpl-${cadre.runId}`);
    expect(cadre).toMatchObject({ status: 'completed', approvals: [] });
    const run = await live.service.getRun(live.users.ann.id, cadre.runId);
    expect(run?.run).toMatchObject({ agent: 'greeter', threadId: cadre.threadId });
  });

  it('runs the default agent for model cadre', async () => {
    const completion = await ask('cadre', 'are you there');
    expect(completion.choices[0]?.message.content).toBe('You said: are you there');
    const run = await live.service.getRun(live.users.ann.id, cadreOf(completion).runId);
    expect(run?.run.agent).toBe('assistant');
  });

  it('streams the text as it comes, then the finish, usage and [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: 'greeter',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(stream);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    const pieces = chunks.map((c) => c.choices[0]?.delta.content).filter(Boolean);
    // Pieces that come within a few ms of each other are merged before they are numbered.
    expect(pieces.join('')).toBe('Hello, world!');
    const finish = chunks.at(-2);
    expect(finish?.choices[0]?.finish_reason).toBe('stop');
    const cadre = cadreOf(finish ?? {});
    expect(cadre.status).toBe('completed');
    expect(cadreOf(chunks[0] ?? {})).toEqual({ runId: cadre.runId, threadId: cadre.threadId });
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 7 });
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set([`chatcmpl-${cadre.runId}`]));
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('streams every turn of the answer (scripted model), tool calls inside the run; not streamed, the same text', async () => {
    const chunks = await collect(
      await client.chat.completions.create({
        model: 'greeter',
        messages: [{ role: 'user', content: 'look around' }],
        stream: true,
      }),
    );
    expect(textOf(chunks)).toBe('Let me look.\n\nNothing much here.');
    expect(chunks.every((c) => !c.choices[0]?.delta.tool_calls)).toBe(true);
    expect(chunks.every((c) => c.usage === undefined)).toBe(true);
    // Not streamed, the answer carries the same text: the words before the tool call too.
    const completion = await ask('greeter', 'look around');
    expect(completion.choices[0]?.message.content).toBe(textOf(chunks));
    expect(completion.usage?.total_tokens).toBe(35);
  });

  it('folds earlier messages into the prompt, or continues a thread by header', async () => {
    const first = await client.chat.completions.create({
      model: 'greeter',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'I am Ann.' },
        { role: 'assistant', content: 'Hi Ann.' },
        { role: 'user', content: [{ type: 'text', text: 'Who am I?' }] },
      ],
    });
    const prompt = promptOf(model.requests.at(-1)!);
    expect(prompt).toContain('System: Be brief.\n\nUser: I am Ann.\n\nAssistant: Hi Ann.');
    expect(prompt.endsWith('Who am I?')).toBe(true);
    const { threadId } = cadreOf(first);
    const next = await client.chat.completions.create(
      {
        model: 'greeter',
        messages: [
          { role: 'user', content: 'ignored, the thread has it' },
          { role: 'user', content: 'And now?' },
        ],
      },
      { headers: { 'x-cadre-thread-id': threadId } },
    );
    expect(next.choices[0]?.message.content).toBe('You said: And now?');
    expect(cadreOf(next).threadId).toBe(threadId);
    const seen = model.requests.at(-1)!.messages.flatMap((m) => m.parts);
    expect(JSON.stringify(seen)).toContain('Hi Ann.');
    expect(JSON.stringify(seen)).not.toContain('ignored');
    await expect(
      client.chat.completions.create(
        { model: 'greeter', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'x-cadre-thread-id': 'no-such-thread' } },
      ),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('answers an unknown model with 404 model_not_found, streaming or not', async () => {
    for (const stream of [false, true]) {
      const error = await client.chat.completions
        .create({ model: 'nope', messages: [{ role: 'user', content: 'hi' }], stream })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error).toMatchObject({
        status: 404,
        code: 'model_not_found',
        type: 'invalid_request_error',
        param: 'model',
      });
    }
  });

  it("refuses a bad token in OpenAI's error shape", async () => {
    const stranger = openAiClient(live.server.url, 'wrong');
    await expect(
      stranger.chat.completions.create({
        model: 'greeter',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const res = await fetch(`${live.server.url}/v1/models`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.json()).toEqual({
      error: {
        message: 'Missing or invalid bearer token.',
        type: 'authentication_error',
        param: null,
        code: 'auth_error',
      },
    });
  });

  it('refuses what an agent cannot take with 400', async () => {
    const bodies = [
      {
        model: 'greeter',
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x/y.png' } }] },
        ],
      },
      { model: 'greeter', messages: [{ role: 'assistant', content: 'prefill' }] },
      { model: 'greeter', messages: [{ role: 'user', content: 'hi' }], n: 2 },
      { model: 'greeter', messages: [] },
    ];
    for (const body of bodies) {
      const error = await client.chat.completions
        .create(body as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ code: 'validation_error', type: 'invalid_request_error' });
    }
    const res = await fetch(`${live.server.url}/v1/nowhere`, {
      headers: { authorization: `Bearer ${live.users.ann.token}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it("answers the server's limits in OpenAI's shape too", async () => {
    const limited = await startTestServer(live.service, {
      store: live.store,
      bodyLimit: 2_000,
      rateLimit: { max: 2, timeWindow: 60_000 },
    });
    try {
      const strict = openAiClient(limited.url, live.users.ann.token);
      const tooBig = await strict.chat.completions
        .create({ model: 'greeter', messages: [{ role: 'user', content: 'x'.repeat(3_000) }] })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(tooBig).toMatchObject({ status: 413, code: 'payload_too_large' });
      await strict.models.list();
      const limitedError = await strict.models.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(limitedError).toBeInstanceOf(OpenAI.RateLimitError);
      expect(limitedError).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    } finally {
      await limited.close();
    }
  });

  it('ends with what waits for approval, where to decide it, and the ids', async () => {
    const completion = await ask('writer', 'write waiting.txt');
    const cadre = cadreOf(completion);
    const [pending] = await live.service.pendingApprovals(live.users.ann.id);
    expect(pending?.runId).toBe(cadre.runId);
    expect(cadre).toMatchObject({
      status: 'awaiting_confirmation',
      runUrl: `${live.server.url}/runs/${cadre.runId}`,
      approvals: [{ approvalId: pending!.approvalId, tool: 'write_file' }],
    });
    // Told apart from an answer: a documented finish_reason, and cadre.status.
    expect(completion.choices[0]?.finish_reason).toBe('awaiting_approval');
    const text = completion.choices[0]?.message.content ?? '';
    expect(text).toContain(`Run ${cadre.runId} is waiting for approval`);
    expect(text).toContain(`(approval ${pending!.approvalId})`);
    expect(text).toContain(`${live.server.url}/runs/${cadre.runId}`);
    expect(text).toContain(`${live.server.url}/api/agent/approvals/resolve`);
    expect(await stat(join(live.dir, 'waiting.txt')).catch(() => undefined)).toBeUndefined();
    await live.service.cancelRun(live.users.ann.id, cadre.runId);

    const chunks = await collect(
      await client.chat.completions.create({
        model: 'writer',
        messages: [{ role: 'user', content: 'write streamed.txt' }],
        stream: true,
      }),
    );
    const finish = chunks.at(-1);
    expect(finish?.choices[0]?.finish_reason).toBe('awaiting_approval');
    const streamed = cadreOf(finish ?? {});
    expect(streamed.approvals).toHaveLength(1);
    expect(textOf(chunks)).toContain(`(approval ${streamed.approvals[0]!.approvalId})`);
    await live.service.cancelRun(live.users.ann.id, streamed.runId);
  });

  it('answers a failed run (the scripted model breaks) as an OpenAI error the SDK raises: 502 model_error, with the run', async () => {
    const error = await ask('greeter', 'break').catch((e: unknown) => e);
    // Before, a 200 whose answer was the error text, with finish_reason stop.
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const failed = error as InstanceType<typeof OpenAI.APIError>;
    expect(failed.status).toBe(502);
    expect(failed).toMatchObject({ code: 'model_error', type: 'server_error' });
    const cadre = (failed.error as { cadre: CadreOutcome & { errorCode: string } }).cadre;
    expect(cadre).toMatchObject({ status: 'failed', errorCode: 'model_error' });
    expect(failed.message).toContain(`Run ${cadre.runId} failed: `);
    const stored = await live.service.getRun(live.users.ann.id, cadre.runId);
    expect(stored?.run.status).toBe('failed');
  });

  it('fails a streamed run the same way: the SDK raises while reading, after the role chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'greeter',
      messages: [{ role: 'user', content: 'break' }],
      stream: true,
    });
    const chunks: ChatCompletionChunk[] = [];
    const error = await (async () => {
      for await (const chunk of stream) chunks.push(chunk);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ code: 'model_error' });
    expect(chunks.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(false);
    expect(textOf(chunks)).not.toMatch(/failed/);
  });

  it('lets the run go on when the client leaves mid-stream', async () => {
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'greeter', messages: [{ role: 'user', content: 'slow' }], stream: true },
      { signal: controller.signal },
    );
    let runId = '';
    for await (const chunk of stream) {
      runId = cadreOf(chunk).runId;
      controller.abort();
      break;
    }
    expect(runId).not.toBe('');
    // Followed as any client would: it returns once the run has ended, told by its changes.
    const run = await live.service.followRun(live.users.ann.id, runId, 0, {});
    expect(run).toMatchObject({ status: 'completed', summary: 'finally' });
  });
});
