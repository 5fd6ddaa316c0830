import { afterEach, describe, expect, it } from 'vitest';
import type { RunRequest } from '../../run-service-types.js';
import {
  fakeService,
  jsonAuth,
  response,
  startTestServer,
  type TestServer,
} from '../testing/test-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('POST /api/agent/run with structured inputs', () => {
  it('passes inputs on; a run given only inputs gets them as its thread message', async () => {
    const seen: RunRequest[] = [];
    const service = fakeService({
      run: (request) => {
        seen.push(request);
        return Promise.resolve(response());
      },
    });
    server = await startTestServer(service);
    const run = (body: unknown) =>
      fetch(`${server?.url}/api/agent/run`, {
        method: 'POST',
        headers: jsonAuth(),
        body: JSON.stringify(body),
      });
    expect((await run({ agent: 'summarizer', inputs: { path: 'a.md', lines: 3 } })).status).toBe(
      200,
    );
    expect((await run({ prompt: 'Hi', inputs: { prompt: 'Hi' } })).status).toBe(200);
    expect(seen).toEqual([
      {
        userId: 'u-ann',
        prompt: 'path: a.md\nlines: 3',
        agent: 'summarizer',
        inputs: { path: 'a.md', lines: 3 },
      },
      { userId: 'u-ann', prompt: 'Hi', inputs: { prompt: 'Hi' } },
    ]);
  });

  it('refuses a body with neither prompt nor inputs, and inputs that are not an object', async () => {
    const service = fakeService();
    server = await startTestServer(service);
    for (const bad of [
      {},
      { agent: 'a' },
      { inputs: [1] },
      { inputs: 'x' },
      { inputs: { '': 1 } },
    ]) {
      const res = await fetch(`${server.url}/api/agent/run`, {
        method: 'POST',
        headers: jsonAuth(),
        body: JSON.stringify(bad),
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(service.calls).toEqual([]);
  });
});
