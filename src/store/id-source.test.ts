import { describe, expect, it } from 'vitest';
import { createIdSource } from './id-source.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createIdSource', () => {
  it('makes RFC 9562 version 7 UUIDs carrying the time', () => {
    const id = createIdSource(() => 0x0190_1234_5678)();
    expect(id).toMatch(UUID_V7);
    expect(id.replace(/-/g, '').slice(0, 12)).toBe('019012345678');
  });

  it('sorts in creation order within one millisecond and when the clock steps back', () => {
    const times = [1000, ...Array<number>(5000).fill(1000), 999, 998, 1001];
    const clock = () => times.shift() ?? 1001;
    const next = createIdSource(clock);
    const ids = Array.from({ length: 5003 }, next);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true);
  });
});
