import { afterEach, describe, expect, it } from 'vitest';
import { fakeService, startTestServer, type TestServer } from '../testing/test-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('GET /api/me (real HTTP on 127.0.0.1)', () => {
  it("names the token's user, so a page can say who is signed in", async () => {
    server = await startTestServer(fakeService());
    const res = await fetch(`${server.url}/api/me`, {
      headers: { authorization: 'Bearer eve-token' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, user: { name: 'eve' } });
    expect((await fetch(`${server.url}/api/me`)).status).toBe(401);
  });
});
