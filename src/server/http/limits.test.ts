import { afterEach, describe, expect, it } from 'vitest';
import {
  auth,
  fakeService,
  jsonAuth,
  startTestServer,
  type TestServer,
} from './testing/test-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('limits (real HTTP on 127.0.0.1)', () => {
  it('refuses a body over the limit (default 256 KiB) with 413 before the service sees it', async () => {
    const service = fakeService();
    server = await startTestServer(service);
    const res = await fetch(`${server.url}/api/agent/run`, {
      method: 'POST',
      headers: jsonAuth(),
      body: JSON.stringify({ prompt: 'x'.repeat(300 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      ok: false,
      error: { code: 'payload_too_large', message: 'The request body is too large.' },
    });
    const fits = await fetch(`${server.url}/api/agent/run`, {
      method: 'POST',
      headers: jsonAuth(),
      body: JSON.stringify({ prompt: 'x'.repeat(90 * 1024) }),
    });
    expect(fits.status).toBe(200);
    expect(service.calls).toEqual(['run']);
  });

  it('limits requests per token with 429 and leaves other tokens and /healthz alone', async () => {
    server = await startTestServer(fakeService(), { rateLimit: { max: 3, timeWindow: 60_000 } });
    const get = (token: string) => fetch(`${server?.url}/api/threads`, { headers: auth(token) });
    for (let i = 0; i < 3; i++) expect((await get('ann-token')).status).toBe(200);
    const limited = await get('ann-token');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect(await limited.json()).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    expect((await get('eve-token')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('listens on 127.0.0.1 in tests and answers unsupported media types with 415', async () => {
    server = await startTestServer(fakeService());
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/api/agent/run`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/xml' },
      body: '<prompt>Hi</prompt>',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
  });
});
