import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentsTestServer } from '../testing/real-test-server.js';
import { startAgentsTestServer } from '../testing/real-test-server.js';

/**
 * A server with no model key at all (what `cadre init && cadre serve` gives a
 * newcomer): every run fails before its first model call. The SDK keeps its
 * default retries here, so a retried request would show as a second thread.
 */
let live: AgentsTestServer<'ann'>;
let client: OpenAI;

beforeAll(async () => {
  live = await startAgentsTestServer({
    prefix: 'cadre-v1-no-model-',
    agents: {},
    users: ['ann'],
    // No model client and no key in the service's environment.
    run: {},
  });
  client = new OpenAI({ apiKey: live.users.ann.token, baseURL: `${live.server.url}/v1` });
});
afterAll(() => live.close());

async function failure(request: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

const threadCount = async (): Promise<number> =>
  (await live.service.listThreads(live.users.ann.id)).length;

describe('/v1 with no model configured (real server, openai SDK with its default retries)', () => {
  it('answers 503 config_error naming the variables, and the SDK does not retry it', async () => {
    const before = await threadCount();
    const error = await failure(
      client.chat.completions.create({
        model: 'cadre',
        messages: [{ role: 'user', content: 'Email bob@example.com about lunch' }],
      }),
    );
    expect(error.status).toBe(503);
    expect(error).toMatchObject({ code: 'config_error', type: 'server_error' });
    expect(error.message).toMatch(/GEMINI_API_KEY/);
    expect(error.headers?.get('x-should-retry')).toBe('false');
    // One request, one run: a retried request would have started the agent again.
    expect((await threadCount()) - before).toBe(1);
  });

  it('fails a stream with config_error too, and the Responses API with 503', async () => {
    const before = await threadCount();
    const stream = await client.chat.completions.create({
      model: 'cadre',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const streamed = await failure(
      (async () => {
        for await (const _chunk of stream);
      })(),
    );
    expect(streamed).toMatchObject({ code: 'config_error' });
    const responded = await failure(client.responses.create({ model: 'cadre', input: 'hi' }));
    expect(responded).toMatchObject({ status: 503, code: 'config_error' });
    expect((await threadCount()) - before).toBe(2);
  });
});
