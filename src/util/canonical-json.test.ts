import { describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson } from './canonical-json.js';
import { sha256Hex } from './sha256.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives equal text for equal values whatever the key order', () => {
    const one = { to: ['bob@example.com'], subject: 'Hi', body: 'Hello' };
    const two = { body: 'Hello', subject: 'Hi', to: ['bob@example.com'] };
    expect(canonicalJson(one)).toBe(canonicalJson(two));
    expect(canonicalHash(one)).toBe(canonicalHash(two));
    expect(canonicalHash(one)).toBe(sha256Hex(canonicalJson(one)));
  });

  it('follows JSON.stringify for undefined, functions, non-finite numbers and toJSON', () => {
    const date = new Date('2026-01-02T03:04:05.000Z');
    expect(canonicalJson({ a: undefined, f: () => 1, n: NaN, d: date })).toBe(
      '{"d":"2026-01-02T03:04:05.000Z","n":null}',
    );
    expect(canonicalJson([undefined, () => 1, 1])).toBe('[null,null,1]');
    expect(canonicalJson('é\n"')).toBe(JSON.stringify('é\n"'));
    expect(canonicalJson(null)).toBe('null');
  });

  it('keeps array order (order is meaning there)', () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('writes null for a value with no JSON form, and refuses circular values', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(() => 1)).toBe('null');
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(/circular/);
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vector', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
