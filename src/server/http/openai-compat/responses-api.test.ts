import type OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../errors/model-error.js';
import { ScriptedModel, type ScriptedTurn } from '../../../model/scripted-model.js';
import type { ModelRequest } from '../../../model/types.js';
import type { AgentsTestServer } from '../testing/real-test-server.js';
import type { CadreOutcome } from './completion-shapes.js';
import { startOpenAiTestServer } from './testing/openai-test-server.js';

let live: AgentsTestServer<'ann'>;
let client: OpenAI;

const promptOf = (r: ModelRequest): string => {
  const texts = r.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])));
  return texts.at(-1) ?? '';
};
const answeredTool = (r: ModelRequest): boolean =>
  r.messages.flatMap((m) => m.parts).some((p) => p.kind === 'function_response');
/** How many user messages the model saw: more than one means the thread went on. */
const turnsOf = (r: ModelRequest): number => r.messages.filter((m) => m.role === 'user').length;

/**
 * "hello" answers in three pieces with usage; "look around" says so, lists
 * the workspace, then answers; "write <path>" asks to write
 * a file (an approval); "break" fails the model; other prompts are echoed
 * with the number of user messages the model saw.
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
      ? { parts: [{ text: 'Nothing much here.' }] }
      : { parts: [{ text: 'Let me look.' }, { functionCall: { name: 'ls', args: {} } }] };
  if (prompt === 'break') throw new ModelError('the scripted model broke', { retryable: false });
  const path = /^write (\S+)/.exec(prompt)?.[1];
  if (path && !answeredTool(r))
    return { parts: [{ functionCall: { name: 'write_file', args: { path, content: 'hi' } } }] };
  return { parts: [{ text: `You said: ${prompt} (${turnsOf(r)})` }] };
});

beforeAll(async () => {
  ({ live, client } = await startOpenAiTestServer(
    'cadre-responses-',
    'name: greeter\ndescription: Greets you.\ntoolConfig:\n  tools: [ls]\npromptConfig:\n  systemPrompt: Greet.\n',
    model,
  ));
});
afterAll(() => live.close());

const cadreOf = (value: object): CadreOutcome => (value as { cadre: CadreOutcome }).cadre;

async function streamed(
  body: Parameters<typeof client.responses.create>[0],
): Promise<{ events: ResponseStreamEvent[]; thread: string | null }> {
  const { data, response } = await client.responses
    .create({ ...body, stream: true })
    .withResponse();
  const events: ResponseStreamEvent[] = [];
  for await (const event of data) events.push(event);
  return { events, thread: response.headers.get('x-cadre-thread-id') };
}

describe('/v1/responses under cadre serve (openai SDK, real run service, scripted model)', () => {
  it("answers with the run's text, usage, and its thread in a header", async () => {
    const { data, response } = await client.responses
      .create({ model: 'greeter', input: 'hello' })
      .withResponse();
    expect(data).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'greeter',
      usage: { input_tokens: 10, output_tokens: 7, total_tokens: 17 },
    });
    expect(data.output_text).toBe('Hello, world!');
    expect(data.id).toBe(`resp_${cadreOf(data).runId}`);
    expect(response.headers.get('x-cadre-thread-id')).toBe(cadreOf(data).threadId);
  });

  it('streams the named events, the text as deltas, and ends with response.completed', async () => {
    const { events, thread } = await streamed({ model: 'greeter', input: 'hello' });
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const deltas = events.flatMap((e) =>
      e.type === 'response.output_text.delta' ? [e.delta] : [],
    );
    expect(deltas.join('')).toBe('Hello, world!');
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_e, i) => i));
    const done = events.at(-1);
    if (done?.type !== 'response.completed') throw new Error('no response.completed');
    expect(done.response.output_text ?? done.response.output[0]).toBeTruthy();
    expect(thread).toBe(cadreOf(done.response).threadId);
  });

  it('answers the same text streamed or not when the scripted model talks before a tool call', async () => {
    const { events } = await streamed({ model: 'greeter', input: 'look around' });
    const deltas = events.flatMap((e) =>
      e.type === 'response.output_text.delta' ? [e.delta] : [],
    );
    expect(deltas.join('')).toBe('Let me look.\n\nNothing much here.');
    const whole = await client.responses.create({ model: 'greeter', input: 'look around' });
    expect(whole.output_text).toBe(deltas.join(''));
  });

  it("assembles the SDK's own stream helper into the final response (scripted)", async () => {
    const stream = client.responses.stream({ model: 'greeter', input: 'hello' });
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('Hello, world!');
  });

  it('continues the thread of previous_response_id, or of the x-cadre-thread-id header', async () => {
    const first = await client.responses.create({ model: 'greeter', input: 'one' });
    expect(first.output_text).toBe('You said: one (1)');
    const second = await client.responses.create({
      model: 'greeter',
      input: 'two',
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('You said: two (2)');
    expect(second.previous_response_id).toBe(first.id);
    expect(cadreOf(second).threadId).toBe(cadreOf(first).threadId);
    const { events } = await streamed({ model: 'greeter', input: 'three' });
    const thread = events.flatMap((e) =>
      e.type === 'response.completed' ? [cadreOf(e.response).threadId] : [],
    )[0];
    const byHeader = await client.responses.create(
      { model: 'greeter', input: 'four' },
      { headers: { 'x-cadre-thread-id': thread } },
    );
    expect(byHeader.output_text).toBe('You said: four (2)');
    await expect(
      client.responses.create({ model: 'greeter', input: 'x', previous_response_id: 'resp_nope' }),
    ).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('folds instructions and earlier input items into the prompt; refuses images', async () => {
    const answer = await client.responses.create({
      model: 'greeter',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: 'Earlier.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Now.' }] },
      ],
    });
    expect(answer.output_text).toContain("The user's latest message, which you answer:\nNow.");
    expect(answer.output_text).toContain('System: Be brief.');
    await expect(
      client.responses.create({
        model: 'greeter',
        input: [
          {
            role: 'user',
            content: [{ type: 'input_image', image_url: 'https://x/y.png', detail: 'auto' }],
          },
        ],
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('body.input.0.content.0'),
    });
    await expect(
      client.responses.create({
        model: 'greeter',
        input: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('body.input:') });
  });

  it('ends a run waiting for approval as incomplete with reason awaiting_approval', async () => {
    const answer = await client.responses.create({ model: 'writer', input: 'write a.txt' });
    expect(answer.status).toBe('incomplete');
    expect(answer.incomplete_details).toEqual({ reason: 'awaiting_approval' });
    expect(cadreOf(answer).approvals).toHaveLength(1);
    expect(answer.output_text).toContain('waiting for approval');
    const { events } = await streamed({ model: 'writer', input: 'write b.txt' });
    const last = events.at(-1);
    expect(last?.type).toBe('response.incomplete');
  });

  it('shows a path disguised with a bidi override and an erase-line escape escaped in the waiting text (scripted model)', async () => {
    const answer = await client.responses.create({
      model: 'writer',
      input: 'write notes\u202etxt.sh\x1b[2K',
    });
    expect(answer.output_text).toContain('- Write 2 bytes to notes\\u202etxt.sh\\x1b[2K (approval');
    expect(answer.output_text).not.toMatch(/[\u202e\x1b]/);
    expect(cadreOf(answer).approvals[0]?.preview).toBe(
      'Write 2 bytes to notes\\u202etxt.sh\\x1b[2K',
    );
  });

  it('raises a failed run (the scripted model breaks) as an OpenAI error, streaming or not', async () => {
    await expect(
      client.responses.create({ model: 'greeter', input: 'break' }),
    ).rejects.toMatchObject({ status: 502, code: 'model_error' });
    await expect(streamed({ model: 'greeter', input: 'break' })).rejects.toMatchObject({
      code: 'model_error',
    });
  });

  it('answers an unknown model with 404 model_not_found', async () => {
    await expect(client.responses.create({ model: 'nobody', input: 'hi' })).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
  });

  it('names the thread in a header on chat completions too (scripted)', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'greeter', messages: [{ role: 'user', content: 'hello' }] })
      .withResponse();
    expect(response.headers.get('x-cadre-thread-id')).toBe(cadreOf(data).threadId);
    const stream = await client.chat.completions
      .create({ model: 'greeter', messages: [{ role: 'user', content: 'hello' }], stream: true })
      .withResponse();
    for await (const _chunk of stream.data) void _chunk;
    expect(stream.response.headers.get('x-cadre-thread-id')).toMatch(/\S/);
  });
});
