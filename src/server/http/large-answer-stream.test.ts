import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../contracts/run-result.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { createRunService } from '../core/create-run-service.js';
import type { RunService } from '../run-service-types.js';
import type { StreamLine } from './stream-lines.js';
import { startTestServer, type TestServer } from './testing/test-support.js';
import { ANSWER, largeAnswerTurn } from './testing/large-answer.js';

let dir: string;
let store: Store;
let service: RunService;
let server: TestServer;
let token: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-large-stream-')));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents/talker.yaml'),
    'name: talker\ndescription: Talks at length.\ntoolConfig:\n  tools: []\n',
  );
  // Every run gets the same long answer, whichever endpoint asked.
  const model = new ScriptedModel(largeAnswerTurn);
  store = await openStore({ url: join(dir, 'cadre.db') });
  service = await createRunService({ store, cwd: dir, env: { HOME: dir }, modelClient: model });
  const user = await store.auth.ensureUser('ann');
  token = (await store.auth.createToken(user.id)).token;
  server = await startTestServer(service, { store });
}, 30_000);
afterAll(async () => {
  await server.close();
  await service.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown): Promise<Response> =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The answer whole, compared without printing 10 MB on a mismatch. */
function expectWhole(text: string | undefined): void {
  expect(text?.length).toBe(ANSWER.length);
  expect(text === ANSWER).toBe(true);
}

/** The JSON values of `data:` lines of an SSE body, `[DONE]` left as a string. */
function sseData(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)));
}

/** Time and memory of one streamed request (server and client share the process), for the figures the test prints. */
async function measured<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    return await work();
  } finally {
    clearInterval(sampler);
    const mb = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;
    console.info(
      `${label}: ${Math.round(performance.now() - started)} ms, rss ${mb(rssBefore)} before, peak ${mb(peak)}, heap +${mb(process.memoryUsage().heapUsed - heapBefore)}`,
    );
  }
}

describe('a 10 MB answer streamed live through cadre serve (real server on loopback, SQLite, scripted model)', () => {
  it('POST /api/agent/run/stream carries it whole: the deltas and the final_result line', async () => {
    const text = await measured('NDJSON stream of a 10 MB answer', async () => {
      const response = await post('/api/agent/run/stream', { prompt: 'Talk', agent: 'talker' });
      expect(response.status).toBe(200);
      return response.text();
    });
    const lines = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as StreamLine);
    const deltas = lines.flatMap((l) => (l.type === 'delta' ? [l.delta] : []));
    expectWhole(deltas.join(''));
    const result = lines.at(-1);
    expect(result?.type).toBe('result');
    if (result?.type !== 'result') return;
    expect(result.result.status).toBe('completed');
    expectWhole(result.result.summary);
    // The final_result event carries the answer whole too.
    const final = lines.find((l) => l.type === 'event' && l.event.type === 'final_result');
    const data = final?.type === 'event' ? (final.event.data.result as RunResult) : undefined;
    expectWhole(data?.final_message);
  }, 120_000);

  it('/v1/chat/completions with stream: true carries it whole and ends with [DONE]', async () => {
    const text = await measured('chat completions stream of a 10 MB answer', async () => {
      const response = await post('/v1/chat/completions', {
        model: 'talker',
        messages: [{ role: 'user', content: 'Talk' }],
        stream: true,
      });
      expect(response.status).toBe(200);
      return response.text();
    });
    const data = sseData(text);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1) as {
      choices: { delta: { content?: string | null }; finish_reason: string | null }[];
    }[];
    expectWhole(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''));
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  }, 120_000);

  it('/v1/responses streaming carries it whole: the deltas, every .done event and response.completed', async () => {
    const text = await measured('Responses stream of a 10 MB answer', async () => {
      const response = await post('/v1/responses', {
        model: 'talker',
        input: 'Talk',
        stream: true,
      });
      expect(response.status).toBe(200);
      return response.text();
    });
    const events = sseData(text) as {
      type: string;
      delta?: string;
      text?: string;
      part?: { text: string };
      item?: { content: { text: string }[] };
      response?: { status: string; output: { content: { text: string }[] }[] };
    }[];
    const deltas = events.filter((e) => e.type === 'response.output_text.delta');
    expectWhole(deltas.map((e) => e.delta).join(''));
    expectWhole(events.find((e) => e.type === 'response.output_text.done')?.text);
    expectWhole(events.find((e) => e.type === 'response.content_part.done')?.part?.text);
    expectWhole(events.find((e) => e.type === 'response.output_item.done')?.item?.content[0]?.text);
    const completed = events.at(-1);
    expect(completed?.type).toBe('response.completed');
    expect(completed?.response?.status).toBe('completed');
    expectWhole(completed?.response?.output[0]?.content[0]?.text);
  }, 120_000);
});
