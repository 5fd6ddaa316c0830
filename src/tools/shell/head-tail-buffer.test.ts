import { describe, expect, it } from 'vitest';
import { HeadTailBuffer, shareBudget } from './head-tail-buffer.js';

describe('HeadTailBuffer', () => {
  it('returns short output whole', () => {
    const buffer = new HeadTailBuffer(10);
    buffer.push('abc');
    buffer.push('def');
    expect(buffer.render(20)).toEqual({ text: 'abcdef', cut: 0 });
  });

  it('keeps the start and the end around a note of what was cut', () => {
    const buffer = new HeadTailBuffer(4);
    for (const chunk of ['START', '-middle-', 'END!']) buffer.push(chunk);
    expect(buffer.render(8)).toEqual({ text: 'STAR\n[… 9 characters cut …]\nEND!', cut: 9 });
  });

  it('cuts output it holds whole when the budget is smaller', () => {
    const buffer = new HeadTailBuffer(10);
    buffer.push('0123456789');
    expect(buffer.render(4)).toEqual({ text: '01\n[… 6 characters cut …]\n89', cut: 6 });
    expect(buffer.render(0).cut).toBe(10);
  });

  it('holds at most twice its keep however much passes through', () => {
    const buffer = new HeadTailBuffer(1_000);
    const chunk = 'x'.repeat(65_536);
    for (let i = 0; i < 80; i += 1) buffer.push(chunk);
    expect(buffer.length).toBe(80 * 65_536);
    expect(buffer.held).toBe(2_000);
    expect(buffer.render(2_000).cut).toBe(80 * 65_536 - 2_000);
  });

  it('holds nothing with a keep of zero', () => {
    const buffer = new HeadTailBuffer(0);
    buffer.push('abc');
    expect(buffer.held).toBe(0);
    expect(buffer.render(0)).toEqual({ text: '\n[… 3 characters cut …]\n', cut: 3 });
  });
});

describe('shareBudget', () => {
  it('gives each stream what it needs when everything fits', () => {
    expect(shareBudget([10, 20], 100)).toEqual([10, 20]);
  });

  it('passes what a quiet stream leaves to a loud one', () => {
    expect(shareBudget([10, 1_000], 100)).toEqual([10, 90]);
    expect(shareBudget([0, 1_000], 100)).toEqual([0, 100]);
  });

  it('splits evenly between two loud streams', () => {
    expect(shareBudget([1_000, 1_000], 100)).toEqual([50, 50]);
  });
});
