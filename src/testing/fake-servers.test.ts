import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGemini } from './fake-gemini-server.js';
import { startFakeOpenAI } from './fake-openai-server.js';
import type { FakeServer } from './fake-turn.js';
import { splitInTwo } from './fake-turn.js';

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

/** The JSON payloads of an SSE body, `[DONE]` left as a string. */
function sseData(text: string): unknown[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)));
}

describe('fake Gemini server', () => {
  it('answers :generateContent with one JSON response holding every part and the usage', async () => {
    fake = await startFakeGemini({
      turns: [{ parts: [{ text: 'Hi there' }], usage: { input: 3, output: 2 } }],
    });
    const response = await post(`${fake.baseUrl}/v1beta/models/gemini-2.5-flash:generateContent`, {
      contents: [],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      candidates: [
        { content: { role: 'model', parts: [{ text: 'Hi there' }] }, finishReason: 'STOP' },
      ],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
    });
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      body: { contents: [] },
    });
  });

  it('streams :streamGenerateContent as \\r\\n\\r\\n-separated SSE with usage on the last event', async () => {
    fake = await startFakeGemini({ turns: [{ parts: [{ text: 'Hello' }] }] });
    const response = await post(
      `${fake.baseUrl}/v1beta/models/m:streamGenerateContent?alt=sse`,
      {},
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text).toContain('\r\n\r\n');
    const events = sseData(text) as Array<{ usageMetadata: Record<string, number> }>;
    expect(events).toHaveLength(2);
    expect(events.at(-1)?.usageMetadata).toHaveProperty('candidatesTokenCount');
    expect(events[0]?.usageMetadata).not.toHaveProperty('candidatesTokenCount');
    expect(fake.requests[0]?.query).toEqual({ alt: 'sse' });
  });

  it('answers the scripted failures first, with Retry-After, then plays the turns', async () => {
    fake = await startFakeGemini({
      failFirst: [{ status: 429, retryAfter: '7' }],
      turns: [{ parts: [{ text: 'ok' }] }],
    });
    const url = `${fake.baseUrl}/v1beta/models/m:generateContent`;
    const first = await post(url, {});
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(await first.json()).toMatchObject({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED' },
    });
    expect((await post(url, {})).status).toBe(200);
    expect(fake.requests).toHaveLength(2);
  });

  it('answers 500 with a clear message when the script runs out', async () => {
    fake = await startFakeGemini({ turns: [] });
    const response = await post(`${fake.baseUrl}/v1beta/models/m:generateContent`, {});
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /script ran out/,
    );
  });

  it('passes the request and its index to a turn function', async () => {
    fake = await startFakeGemini({
      turns: (request, index) => ({ parts: [{ text: `#${index} ${request.path}` }] }),
    });
    const response = await post(`${fake.baseUrl}/v1beta/models/m:generateContent`, {});
    expect(JSON.stringify(await response.json())).toContain('#0 /v1beta/models/m:generateContent');
  });

  it('answers unknown routes with 404', async () => {
    fake = await startFakeGemini({ turns: [] });
    expect((await post(`${fake.baseUrl}/v1beta/files`, {})).status).toBe(404);
  });
});

describe('fake OpenAI server', () => {
  it('answers a non-streaming request with one chat.completion', async () => {
    fake = await startFakeOpenAI({
      turns: [
        {
          parts: [{ text: 'Hi' }, { functionCall: { name: 'ls', args: { dir: '.' } } }],
          usage: { input: 1, output: 2 },
        },
      ],
    });
    const response = await post(`${fake.baseUrl}/v1/chat/completions`, {
      model: 'm',
      messages: [],
    });
    expect(await response.json()).toMatchObject({
      object: 'chat.completion',
      choices: [
        {
          message: {
            content: 'Hi',
            tool_calls: [{ type: 'function', function: { name: 'ls', arguments: '{"dir":"."}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    });
  });

  it('streams chunks ending with data: [DONE], usage only when include_usage is asked', async () => {
    fake = await startFakeOpenAI({
      turns: [{ parts: [{ text: 'Hi' }] }, { parts: [{ text: 'Hi' }] }],
    });
    const url = `${fake.baseUrl}/v1/chat/completions`;
    const withUsage = sseData(
      await (await post(url, { stream: true, stream_options: { include_usage: true } })).text(),
    );
    expect(withUsage.at(-1)).toBe('[DONE]');
    expect(withUsage.at(-2)).toMatchObject({
      choices: [],
      usage: { total_tokens: expect.any(Number) },
    });
    const without = sseData(await (await post(url, { stream: true })).text());
    expect(
      without.some((event) => typeof event === 'object' && event !== null && 'usage' in event),
    ).toBe(false);
  });

  it('streams tool-call arguments in 2+ fragments and thoughts as reasoning_content', async () => {
    fake = await startFakeOpenAI({
      turns: [
        { parts: [{ thought: 'hmm' }, { functionCall: { name: 'ls', args: { dir: '.' } } }] },
      ],
    });
    const events = sseData(
      await (await post(`${fake.baseUrl}/v1/chat/completions`, { stream: true })).text(),
    );
    const deltas = events.flatMap((e) =>
      typeof e === 'object'
        ? [(e as { choices: Array<{ delta: Record<string, unknown> }> }).choices[0]?.delta]
        : [],
    );
    const fragments = deltas.filter((d) => d?.['tool_calls']);
    expect(fragments.length).toBeGreaterThanOrEqual(2);
    expect(deltas.some((d) => d?.['reasoning_content'])).toBe(true);
  });
});

describe('splitInTwo', () => {
  it('splits text of 2+ characters into two pieces that join back', () => {
    expect(splitInTwo('abcde')).toEqual(['abc', 'de']);
    expect(splitInTwo('a')).toEqual(['a']);
  });
});
