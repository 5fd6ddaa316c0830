import { describe, expect, it } from 'vitest';
import { LINE_WEIGHT_CAP, lineWeight, waitingLines } from './waiting-lines.js';

describe('waitingLines', () => {
  it('weighs a line by its UTF-8 bytes, capped so a long answer counts as one large line', () => {
    expect(lineWeight('abc\n')).toBe(4);
    expect(lineWeight('é')).toBe(2);
    expect(lineWeight('x'.repeat(30 * 1024 * 1024))).toBe(LINE_WEIGHT_CAP);
    expect(lineWeight('é'.repeat(LINE_WEIGHT_CAP / 2 + 1))).toBe(LINE_WEIGHT_CAP);
  });

  it('hands lines back first in first out, keeping the weight of what still waits', () => {
    const lines = waitingLines();
    for (let i = 0; i < 3000; i += 1) lines.add(`${i}\n`);
    lines.add('x'.repeat(2 * LINE_WEIGHT_CAP));
    const small = Array.from({ length: 3000 }, (_, i) => lineWeight(`${i}\n`)).reduce(
      (a, b) => a + b,
    );
    expect(lines.weight()).toBe(small + LINE_WEIGHT_CAP);
    for (let i = 0; i < 2000; i += 1) expect(lines.next()).toBe(`${i}\n`);
    expect(lines.size()).toBe(1001);
    for (let i = 2000; i < 3000; i += 1) expect(lines.next()).toBe(`${i}\n`);
    expect(lines.weight()).toBe(LINE_WEIGHT_CAP);
    expect(lines.next()?.length).toBe(2 * LINE_WEIGHT_CAP);
    expect(lines.next()).toBeUndefined();
    expect(lines.weight()).toBe(0);
    lines.add('again\n');
    lines.clear();
    expect([lines.size(), lines.weight(), lines.next()]).toEqual([0, 0, undefined]);
  });
});
