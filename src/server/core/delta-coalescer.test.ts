import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import { ManualClock } from '../../util/testing/manual-clock.js';
import { deltaCoalescer } from './delta-coalescer.js';

const event = (
  type: 'text_delta' | 'thought_delta',
  text: string,
  executionId = 'e1',
): CadreEvent => ({
  type,
  message: text,
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { text },
  runId: 'r1',
  executionId,
  depth: 0,
  path: ['a'],
  seq: 0,
});

describe('deltaCoalescer', () => {
  it('merges consecutive deltas of one execution into pieces of at most maxChars, in order', () => {
    const out: CadreEvent[] = [];
    const deltas = deltaCoalescer({ maxChars: 10, waitMs: 1_000, emit: (e) => out.push(e) });
    for (const piece of ['abc', 'def', 'ghi', 'jkl']) deltas.offer(event('text_delta', piece));
    deltas.offer(event('text_delta', 'xy', 'e2'));
    deltas.offer({
      ...event('text_delta', 'ls'),
      type: 'tool_call',
      data: { callId: 'c1', tool: 'ls', args: {} },
    });
    expect(out.map((e) => [e.type, e.message, e.data.text])).toEqual([
      ['text_delta', 'abcdefghi', 'abcdefghi'],
      ['text_delta', 'jkl', 'jkl'],
      ['text_delta', 'xy', 'xy'],
      ['tool_call', 'ls', undefined],
    ]);
  });

  it('a held delta goes out after waitMs, or when released; a discarded one never does', async () => {
    const out: CadreEvent[] = [];
    const clock = new ManualClock();
    let emitted = (): void => undefined;
    const deltas = deltaCoalescer({
      maxChars: 100,
      waitMs: 10,
      clock,
      emit: (e) => (out.push(e), emitted()),
    });
    deltas.offer(event('thought_delta', 'hmm'));
    const held = new Promise<void>((resolve) => (emitted = resolve));
    clock.advance(9);
    // Still waiting a millisecond before waitMs.
    expect(clock.pending).toBe(1);
    expect(out).toEqual([]);
    clock.advance(1);
    await held;
    expect(out.map((e) => e.message)).toEqual(['hmm']);
    deltas.offer(event('text_delta', 'now'));
    deltas.release();
    deltas.offer(event('text_delta', 'never'));
    deltas.discard();
    // Released and discarded: no wait is left to deliver anything later.
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(out.map((e) => e.message)).toEqual(['hmm', 'now']);
  });

  it('an unwatched delta sets no timer and waits for the next release; once watched, they wait again', () => {
    const out: CadreEvent[] = [];
    const clock = new ManualClock();
    let watched = false;
    const deltas = deltaCoalescer({
      maxChars: 100,
      waitMs: 10,
      clock,
      watched: () => watched,
      emit: (e) => out.push(e),
    });
    deltas.offer(event('text_delta', 'a'));
    deltas.offer(event('text_delta', 'b'));
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(out).toEqual([]);
    // The write that follows takes it, merged.
    deltas.release();
    expect(out.map((e) => e.message)).toEqual(['ab']);
    watched = true;
    deltas.offer(event('text_delta', 'c'));
    expect(clock.pending).toBe(1);
  });
});
