import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from './fake-anthropic-server.js';
import type { FakeServer } from './fake-turn.js';

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const post = (url: string, body: unknown): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

interface NamedEvent {
  event: string;
  data: Record<string, unknown>;
}

/** `event: <name>` / `data: <json>` pairs of an SSE body, in order. */
function sseEvents(text: string): NamedEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const field = (name: string): string =>
        lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2) ?? '';
      return { event: field('event'), data: JSON.parse(field('data')) as Record<string, unknown> };
    });
}

const deltasOf = (events: NamedEvent[], type: string): Array<Record<string, unknown>> =>
  events
    .filter((e) => e.event === 'content_block_delta')
    .map((e) => e.data['delta'] as Record<string, unknown>)
    .filter((delta) => delta['type'] === type);

describe('fake Anthropic server', () => {
  it('streams named events in the Messages order, each event name matching its data type', async () => {
    fake = await startFakeAnthropic({ turns: [{ parts: [{ text: 'Hello' }] }] });
    const response = await post(`${fake.baseUrl}/v1/messages`, { model: 'claude-x', stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(await response.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const { event, data } of events) expect(data['type']).toBe(event);
    expect(deltasOf(events, 'text_delta').map((d) => d['text'])).toEqual(['Hel', 'lo']);
    expect(events[0]?.data).toMatchObject({
      message: { role: 'assistant', model: 'claude-x', content: [], stop_reason: null },
    });
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'end_turn' } });
  });

  it('streams thinking with a signature_delta and tool input as 2+ input_json_delta fragments', async () => {
    fake = await startFakeAnthropic({
      turns: [
        {
          parts: [
            { thought: 'Let me look.', signature: 'c2lnLTE=' },
            { functionCall: { name: 'ls', args: { dir: 'src' } } },
          ],
        },
      ],
    });
    const events = sseEvents(
      await (await post(`${fake.baseUrl}/v1/messages`, { stream: true })).text(),
    );
    expect(
      deltasOf(events, 'thinking_delta')
        .map((d) => d['thinking'])
        .join(''),
    ).toBe('Let me look.');
    expect(deltasOf(events, 'signature_delta')).toEqual([
      { type: 'signature_delta', signature: 'c2lnLTE=' },
    ]);
    const fragments = deltasOf(events, 'input_json_delta').map((d) => d['partial_json']);
    expect(fragments.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(fragments.join(''))).toEqual({ dir: 'src' });
    const toolStart = events.find(
      (e) =>
        e.event === 'content_block_start' &&
        (e.data['content_block'] as { type: string }).type === 'tool_use',
    );
    expect(toolStart?.data).toMatchObject({
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_fake_0_1', name: 'ls', input: {} },
    });
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('reports cache reads and writes apart from input_tokens, and thinking inside output_tokens', async () => {
    fake = await startFakeAnthropic({
      turns: [
        {
          parts: [{ thought: 'hm' }, { text: 'ok' }],
          usage: { input: 12, output: 3, thoughts: 5 },
          cache: { read: 900, write: 40 },
        },
      ],
    });
    const events = sseEvents(
      await (await post(`${fake.baseUrl}/v1/messages`, { stream: true })).text(),
    );
    expect(events[0]?.data).toMatchObject({
      message: {
        usage: { input_tokens: 12, cache_read_input_tokens: 900, cache_creation_input_tokens: 40 },
      },
    });
    expect(events.at(-2)?.data).toMatchObject({
      usage: { output_tokens: 8, output_tokens_details: { thinking_tokens: 5 } },
    });
  });

  it('answers a non-streaming request with one message holding every block', async () => {
    fake = await startFakeAnthropic({
      turns: [
        {
          parts: [{ text: 'Hi' }, { functionCall: { id: 'toolu_1', name: 'ls', args: {} } }],
          usage: { input: 1, output: 2 },
        },
      ],
    });
    const response = await post(`${fake.baseUrl}/v1/messages`, { model: 'm' });
    expect(await response.json()).toMatchObject({
      type: 'message',
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 1, output_tokens: 2 },
    });
  });

  it('answers scripted 429 / 529 failures with Retry-After and Anthropic error bodies', async () => {
    fake = await startFakeAnthropic({
      failFirst: [{ status: 429, retryAfter: '3' }, { status: 529 }],
      turns: [{ parts: [{ text: 'ok' }] }],
    });
    const url = `${fake.baseUrl}/v1/messages`;
    const limited = await post(url, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.any(String) },
    });
    const overloaded = await post(url, {});
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toMatchObject({ error: { type: 'overloaded_error' } });
    expect((await post(url, {})).status).toBe(200);
  });

  it('can end a stream with an error event after message_start', async () => {
    fake = await startFakeAnthropic({
      turns: [{ parts: [{ text: 'never' }], streamError: { type: 'overloaded_error' } }],
    });
    const events = sseEvents(
      await (await post(`${fake.baseUrl}/v1/messages`, { stream: true })).text(),
    );
    expect(events.map((e) => e.event)).toEqual(['message_start', 'ping', 'error']);
    expect(events[2]?.data).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'overloaded_error' },
    });
  });

  it('answers 500 when the script runs out and 404 for other routes', async () => {
    fake = await startFakeAnthropic({ turns: [] });
    const ranOut = await post(`${fake.baseUrl}/v1/messages`, {});
    expect(ranOut.status).toBe(500);
    expect(((await ranOut.json()) as { error: { message: string } }).error.message).toMatch(
      /script ran out/,
    );
    expect((await post(`${fake.baseUrl}/v1/complete`, {})).status).toBe(404);
  });
});
