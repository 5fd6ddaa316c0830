import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors/cadre-error.js';
import { parseTrustProxy } from './trust-proxy.js';

describe('parseTrustProxy', () => {
  it('trusts no one by default', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
  });

  it('reads true, or a list of addresses and ranges', () => {
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of ['yes', '2', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/8/1', 'proxy.local'])
      expect(() => parseTrustProxy(bad)).toThrow(ConfigError);
    expect(() => parseTrustProxy('yes')).toThrow(/CADRE_TRUST_PROXY/);
  });
});
