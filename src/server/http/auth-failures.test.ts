import { afterEach, describe, expect, it } from 'vitest';
import type { TokenLookup } from './auth.js';
import { createAuthFailures } from './auth-failures.js';
import { clientKey } from './client-key.js';
import { auth, fakeService, fakeTokens, startTestServer, type TestServer } from './test-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The fake token store, counting lookups. */
function countingTokens(): TokenLookup & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    lookups,
    findUserByToken: (token, signal) => {
      lookups.push(token);
      return fakeTokens.findUserByToken(token, signal);
    },
  };
}

describe('failed sign-ins (real HTTP on 127.0.0.1)', () => {
  it('answers 429 after N failures from one address, without looking the token up', async () => {
    const store = countingTokens();
    server = await startTestServer(fakeService(), {
      store,
      authFailureLimit: { max: 3, windowMs: 60_000 },
    });
    const get = (headers: Record<string, string>) =>
      fetch(`${server?.url}/api/threads`, { headers });
    expect((await get(auth())).status).toBe(200);
    for (const headers of [auth('guess-1'), auth('guess-2'), {}])
      expect((await get(headers)).status).toBe(401);

    const limited = await get(auth('guess-3'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await limited.json()).toEqual({
      ok: false,
      error: { code: 'rate_limited', message: expect.stringMatching(/^Too many failed sign-ins/) },
    });
    expect((await get({})).status).toBe(429);
    expect(store.lookups).toEqual(['ann-token', 'guess-1', 'guess-2']);

    // A token that worked keeps working from the blocked address; /healthz needs none.
    for (let i = 0; i < 5; i++) expect((await get(auth())).status).toBe(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // A token never seen here waits out the window like a guess: answering it would tell guesses apart.
    expect((await get(auth('eve-token'))).status).toBe(429);
  });

  it('does not count valid tokens', async () => {
    server = await startTestServer(fakeService(), {
      authFailureLimit: { max: 2, windowMs: 60_000 },
    });
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${server.url}/api/threads`, { headers: auth() });
      expect(res.status).toBe(200);
    }
  });
});

describe('createAuthFailures', () => {
  it('blocks at max failures for the rest of the window, then forgets', () => {
    const failures = createAuthFailures({ max: 2, windowMs: 1_000 });
    failures.fail('a', 0);
    expect(failures.blockedFor('a', 10)).toBe(0);
    failures.fail('a', 100);
    expect(failures.blockedFor('a', 400)).toBe(600);
    expect(failures.blockedFor('b', 400)).toBe(0);
    expect(failures.blockedFor('a', 1_000)).toBe(0);
    failures.fail('a', 1_000);
    expect(failures.blockedFor('a', 1_001)).toBe(0);
  });

  it('remembers a bounded number of clients, dropping the oldest', () => {
    const failures = createAuthFailures({ max: 1, windowMs: 60_000 });
    failures.fail('first', 0);
    expect(failures.blockedFor('first', 1)).toBeGreaterThan(0);
    for (let i = 0; i < 10_000; i++) failures.fail(`client-${i}`, 1);
    expect(failures.blockedFor('first', 2)).toBe(0);
    expect(failures.blockedFor('client-9999', 2)).toBeGreaterThan(0);
  });

  it('knows tokens that worked, for a day', () => {
    const failures = createAuthFailures();
    failures.succeed('k', 0);
    expect(failures.known('k', 1_000)).toBe(true);
    expect(failures.known('other', 1_000)).toBe(false);
    expect(failures.known('k', 24 * 60 * 60 * 1000)).toBe(false);
  });

  it('refuses a limit that could never or always block', () => {
    expect(() => createAuthFailures({ max: 0, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => createAuthFailures({ max: 5, windowMs: 0 })).toThrow(RangeError);
  });
});

describe('clientKey', () => {
  it('keys IPv4 by address and IPv6 by its /64', () => {
    expect(clientKey('127.0.0.1')).toBe('127.0.0.1');
    expect(clientKey('::ffff:10.0.0.7')).toBe('10.0.0.7');
    expect(clientKey('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:db8:0:1::2')).toBe(clientKey('2001:0db8:0000:0001:ffff:1:2:3'));
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('64:ff9b::10.0.0.1')).toBe('64:ff9b:0:0::/64');
    expect(clientKey(undefined)).toBe('unknown');
  });
});
