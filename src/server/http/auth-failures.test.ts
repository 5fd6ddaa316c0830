import { afterEach, describe, expect, it } from 'vitest';
import { createAuthFailures } from './auth-failures.js';
import { clientKey } from './client-key.js';
import { failureKeys } from './failure-keys.js';
import { auth, fakeService, startTestServer, type TestServer } from './testing/test-support.js';
import { parseTrustProxy } from './trust-proxy.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const get = (headers: Record<string, string>) => fetch(`${server?.url}/api/threads`, { headers });

describe('failed sign-ins (real HTTP on 127.0.0.1)', () => {
  it('accepts a valid never-seen token from an address after 25 bad ones', async () => {
    server = await startTestServer(fakeService());
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await get(auth(`bad-${i}`))).status);
    // The default limit: 20 failures a minute are 401, the rest 429.
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);

    expect((await get(auth('eve-token'))).status).toBe(200);
    expect((await get(auth())).status).toBe(200);
    // Bad attempts are still limited after the valid ones.
    expect((await get(auth('bad-25'))).status).toBe(429);
  });

  it('answers bad attempts beyond the limit 429 with Retry-After, missing tokens included', async () => {
    server = await startTestServer(fakeService(), {
      authFailureLimit: { max: 3, windowMs: 60_000 },
    });
    for (const headers of [auth('guess-1'), auth('guess-2'), {}]) {
      const res = await get(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('retry-after')).toBeNull();
    }
    const limited = await get(auth('guess-3'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await limited.json()).toEqual({
      ok: false,
      error: { code: 'rate_limited', message: expect.stringMatching(/^Too many failed sign-ins/) },
    });
    expect((await get({})).status).toBe(429);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('does not count valid tokens', async () => {
    server = await startTestServer(fakeService(), {
      authFailureLimit: { max: 2, windowMs: 60_000 },
    });
    for (let i = 0; i < 10; i++) expect((await get(auth())).status).toBe(200);
    expect((await get(auth('guess'))).status).toBe(401);
  });

  it('tells clients apart by X-Forwarded-For behind a trusted proxy, and only then', async () => {
    const limit = { max: 2, windowMs: 60_000 };
    const from = (address: string, token: string) => ({
      ...auth(token),
      'x-forwarded-for': address,
    });
    server = await startTestServer(fakeService(), {
      authFailureLimit: limit,
      trustProxy: parseTrustProxy('127.0.0.1'),
    });
    for (const token of ['a-1', 'a-2'])
      expect((await get(from('10.0.0.1', token))).status).toBe(401);
    expect((await get(from('10.0.0.1', 'a-3'))).status).toBe(429);
    expect((await get(from('10.0.0.2', 'b-1'))).status).toBe(401);
    expect((await get(from('10.0.0.1', 'eve-token'))).status).toBe(200);
    await server.close();

    // Without trustProxy the header is anyone's to forge, so the socket's address counts.
    server = await startTestServer(fakeService(), { authFailureLimit: limit });
    for (const token of ['a-1', 'a-2'])
      expect((await get(from('10.0.0.1', token))).status).toBe(401);
    expect((await get(from('10.0.0.2', 'b-1'))).status).toBe(429);
  });

  it('limits guesses at one token prefix spread over many addresses', async () => {
    server = await startTestServer(fakeService(), {
      authFailureLimit: { max: 2, windowMs: 60_000 },
      trustProxy: true,
    });
    const guess = (i: number) => ({
      ...auth(`cadre_AbCdEf${'x'.repeat(30)}${i}`),
      'x-forwarded-for': `10.0.1.${i}`,
    });
    expect((await get(guess(1))).status).toBe(401);
    expect((await get(guess(2))).status).toBe(401);
    expect((await get(guess(3))).status).toBe(429);
    // Another prefix from a fresh address is not held up.
    expect(
      (await get({ ...auth('cadre_ZzZzZz-other'), 'x-forwarded-for': '10.0.1.4' })).status,
    ).toBe(401);
  });
});

describe('createAuthFailures', () => {
  it('limits beyond max failures for the rest of the window, then forgets', () => {
    const failures = createAuthFailures({ max: 2, windowMs: 1_000 });
    expect(failures.fail({ client: 'a' }, 0)).toBe(0);
    expect(failures.fail({ client: 'a' }, 100)).toBe(0);
    expect(failures.fail({ client: 'a' }, 400)).toBe(600);
    expect(failures.fail({ client: 'b' }, 400)).toBe(0);
    expect(failures.fail({ client: 'a' }, 1_000)).toBe(0);
  });

  it('counts the address and the prefix apart, limiting on either', () => {
    const failures = createAuthFailures({ max: 1, windowMs: 1_000 });
    expect(failures.fail({ client: 'a', prefix: 'p' }, 0)).toBe(0);
    expect(failures.fail({ client: 'b', prefix: 'p' }, 10)).toBe(990);
    expect(failures.fail({ client: 'a', prefix: 'q' }, 20)).toBe(980);
    expect(failures.fail({ client: 'c', prefix: 'r' }, 20)).toBe(0);
  });

  it('remembers a bounded number of clients, dropping the oldest', () => {
    const failures = createAuthFailures({ max: 1, windowMs: 60_000 });
    failures.fail({ client: 'first' }, 0);
    for (let i = 0; i < 10_000; i++) failures.fail({ client: `client-${i}` }, 1);
    expect(failures.fail({ client: 'first' }, 2)).toBe(0);
    expect(failures.fail({ client: 'client-9999' }, 2)).toBeGreaterThan(0);
  });

  it('keeps an address counted while fresh prefixes flood in', () => {
    const failures = createAuthFailures({ max: 1, windowMs: 60_000 });
    for (let i = 0; i < 20_000; i++) failures.fail({ client: 'guesser', prefix: `p${i}` }, 1);
    expect(failures.fail({ client: 'guesser', prefix: 'fresh' }, 2)).toBeGreaterThan(0);
  });

  it('refuses a limit that could never or always block', () => {
    expect(() => createAuthFailures({ max: 0, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => createAuthFailures({ max: 5, windowMs: 0 })).toThrow(RangeError);
  });
});

describe('failureKeys', () => {
  it('keys a token by a digest of its first 12 characters, never the characters', () => {
    const a = failureKeys('127.0.0.1', 'cadre_AbCdEfSECRET-1');
    const b = failureKeys('10.0.0.1', 'cadre_AbCdEfOTHER-2');
    expect(a.client).toBe('127.0.0.1');
    expect(a.prefix).toBe(b.prefix);
    expect(a.prefix).not.toContain('AbCdEf');
    expect(failureKeys('127.0.0.1', 'cadre_ZzZzZzSECRET-1').prefix).not.toBe(a.prefix);
    expect(failureKeys('127.0.0.1', undefined)).toEqual({ client: '127.0.0.1' });
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
