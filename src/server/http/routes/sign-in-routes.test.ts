import { afterEach, describe, expect, it } from 'vitest';
import { createSignInCodes } from '../sign-in-codes.js';
import { fakeService, startTestServer, type TestServer } from '../testing/test-support.js';
import type { SignInLinks } from './sign-in-routes.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Links whose codes last `ttlMs` at a clock the test moves; each exchange mints a new token. */
function links(clock = { now: 0 }, ttlMs = 60_000) {
  const minted: string[] = [];
  const signIn: SignInLinks = {
    codes: createSignInCodes({ ttlMs, now: () => clock.now }),
    mint: () => {
      minted.push(`session-token-${minted.length + 1}`);
      return Promise.resolve(minted.at(-1) ?? '');
    },
  };
  return { signIn, minted, clock };
}

const exchange = (url: string, code: string) =>
  fetch(`${url}/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });

describe('POST /api/sign-in: the one-time code of the sign-in link (real HTTP on 127.0.0.1)', () => {
  it('exchanges a code once for a session token; reusing the link is refused with a clear message', async () => {
    const { signIn, minted } = links();
    server = await startTestServer(fakeService(), { signIn });
    const code = signIn.codes.issue();
    const first = await exchange(server.url, code);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, token: 'session-token-1' });

    const again = await exchange(server.url, code);
    expect(again.status).toBe(401);
    const body = (await again.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('auth_error');
    expect(body.error.message).toMatch(/already used/);
    expect(minted).toEqual(['session-token-1']);

    // Neither the code nor the token it bought is in any log line.
    const logs = server.logs();
    expect(logs).toContain('/api/sign-in');
    expect(logs).not.toContain(code);
    expect(logs).not.toContain('session-token-1');
  });

  it('refuses an expired code and an unknown one, and mints nothing', async () => {
    const { signIn, minted, clock } = links({ now: 0 }, 1_000);
    server = await startTestServer(fakeService(), { signIn });
    const code = signIn.codes.issue();
    clock.now = 1_000;
    const late = await exchange(server.url, code);
    expect(late.status).toBe(401);
    expect(await late.text()).toMatch(/expired/);
    expect((await exchange(server.url, 'guessed-code')).status).toBe(401);
    expect(minted).toEqual([]);
  });

  it('works only from this machine: a remote address is refused, even claiming 127.0.0.1 through a trusted proxy', async () => {
    const { signIn, minted } = links();
    server = await startTestServer(fakeService(), { signIn, trustProxy: true });
    const code = signIn.codes.issue();
    const remote = await server.app.inject({
      method: 'POST',
      url: '/api/sign-in',
      remoteAddress: '203.0.113.9',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '127.0.0.1' },
      payload: JSON.stringify({ code }),
    });
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toMatchObject({ error: { code: 'policy_error' } });
    expect(minted).toEqual([]);
    // The code was not spent by the refused attempt: the person here still signs in.
    expect((await exchange(server.url, code)).status).toBe(200);
  });

  it('is not served at all without sign-in links (a server not started by `cadre serve` on this machine)', async () => {
    server = await startTestServer(fakeService());
    expect((await exchange(server.url, 'anything')).status).toBe(401);
  });
});
