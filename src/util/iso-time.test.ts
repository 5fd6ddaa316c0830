import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isoTime } from './iso-time.js';

test('isoTime matches Date.prototype.toISOString for every instant', () => {
  fc.assert(
    fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }),
    { numRuns: 20_000 },
  );
});

test.each([
  0,
  -1,
  951_782_400_000,
  4_107_542_400_000,
  -62_167_219_200_000,
  253_402_300_799_999,
  253_402_300_800_000,
  -62_167_219_200_001,
  1.5,
  Date.UTC(2024, 1, 29, 23, 59, 59, 999),
])('isoTime(%d) is Date’s own string, edges and leap days included', (ms) => {
  expect(isoTime(ms)).toBe(new Date(ms).toISOString());
});
