import { describe, expect, it } from 'vitest';
import { jsonSize, type JsonSize } from './json-size.js';

/** What the estimate used to compute: stringify with signatures and images left out. */
function reference(value: unknown): JsonSize {
  let images = 0;
  const json = JSON.stringify(value, (key, inner: unknown) => {
    if (key === 'signature') return undefined;
    if (key === 'images' && Array.isArray(inner)) {
      images += inner.length;
      return undefined;
    }
    return inner;
  }) as string | undefined;
  return { chars: json?.length ?? 0, images };
}

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

const STRINGS = [
  '',
  'a',
  'add',
  'quote " and \\ slash',
  'line\nbreak\ttab\u0001',
  'é ü 中文',
  '😀',
  '\ud800 lone',
  'x'.repeat(500),
];
const KEYS = ['a', 'b', 'text', 'signature', 'images', 'args', 'ké"y', ''];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 4 ? 6 : 9));
  const of = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  switch (pick) {
    case 0:
      return of(STRINGS);
    case 1:
      return of([0, -0, 1, -12.5, 1e21, 1.5e-7, Number.MAX_VALUE, NaN, Infinity, 123_456_789]);
    case 2:
      return of([true, false, null]);
    case 3:
      return of([undefined, () => 1, Symbol('s')]);
    case 4:
      return new Date(Math.floor(next() * 1e12));
    case 5:
      return of(STRINGS);
    case 6:
      return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 5) }, () => [of(KEYS), value(next, depth + 1)]),
      );
  }
}

describe('jsonSize', () => {
  it('measures a message as stringify would, signatures left out and images counted', () => {
    const message = {
      role: 'model',
      parts: [
        { kind: 'text', text: 'Let me add "these".', signature: 'c2lnbmF0dXJl'.repeat(40) },
        { kind: 'function_call', id: 'call_1_1', name: 'add', args: { a: 1, b: 2.5 } },
        { kind: 'function_response', id: 'call_1_1', name: 'add', response: { output: 3.5 } },
        { kind: 'text', text: 'see', images: [{ mimeType: 'image/png', data: 'AAAA' }, {}] },
      ],
    };
    expect(jsonSize(message)).toEqual(reference(message));
    expect(jsonSize(message).images).toBe(2);
    expect(jsonSize(message).chars).toBeLessThan(JSON.stringify(message).length - 480);
  });

  it('agrees with stringify on 2,000 generated values (escapes, toJSON, omitted members, non-finite numbers)', () => {
    const next = random(7);
    for (let i = 0; i < 2_000; i++) {
      const generated = value(next, 0);
      expect(jsonSize(generated), JSON.stringify(generated)).toEqual(reference(generated));
    }
  });

  it('measures nesting deeper than it walks, and names a cycle as stringify does', () => {
    let deep: unknown = { images: [1, 2, 3], text: 'end' };
    for (let i = 0; i < 200; i++) deep = i % 2 ? [deep] : { signature: 'x', next: deep };
    expect(jsonSize(deep)).toEqual(reference(deep));
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(() => jsonSize(cycle)).toThrow(TypeError);
  });

  it('throws on a bigint as stringify does, and measures nothing for undefined', () => {
    expect(() => jsonSize({ n: 1n })).toThrow(TypeError);
    expect(jsonSize(undefined)).toEqual({ chars: 0, images: 0 });
  });
});
