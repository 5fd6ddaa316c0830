import { describe, expect, it } from 'vitest';
import { createSignInCodes } from './sign-in-codes.js';

describe('one-time sign-in codes', () => {
  it('a code is good once: the second use is refused as used', () => {
    const codes = createSignInCodes();
    const code = codes.issue();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codes.redeem(code)).toBe('ok');
    expect(codes.redeem(code)).toBe('used');
  });

  it('a code expires: past its life it is refused, even unused', () => {
    let now = 1_000;
    const codes = createSignInCodes({ ttlMs: 60_000, now: () => now });
    const late = codes.issue();
    const early = codes.issue();
    now += 59_999;
    expect(codes.redeem(early)).toBe('ok');
    now += 1;
    expect(codes.redeem(late)).toBe('expired');
  });

  it('a guessed or altered code is unknown, and guessing spends nothing', () => {
    const codes = createSignInCodes();
    const code = codes.issue();
    expect(codes.redeem(`${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`)).toBe('unknown');
    expect(codes.redeem('')).toBe('unknown');
    expect(codes.redeem(code)).toBe('ok');
  });
});
