import { describe, expect, it } from 'vitest';
import { RunEvents } from '../runtime/loop/run-events.js';
import { parseStoredEvent, restoreEvent } from '../store/stored-event.js';
import { closedEvent, closedInput } from './known-events.js';
import type { CadreEvent, EventInput } from './types.js';

const where = { executionId: 'r1', depth: 0, path: ['a'] };
const envelope = {
  ...where,
  message: 'm',
  timestamp: '2026-01-01T00:00:00.000Z',
  runId: 'r1',
  seq: 1,
};

describe('the closed event union at its edges', () => {
  it('an emitter of a type nobody knows (code written when events were open) gets a custom event', () => {
    const seen: CadreEvent[] = [];
    const emit = new RunEvents('r1', (e) => seen.push(e)).sinkFor(where);
    // Plain JavaScript (or an old build) can still hand over any type.
    emit({
      type: 'probe_progress',
      message: 'half way',
      data: { pct: 50 },
    } as unknown as EventInput);
    emit({ type: 'custom', name: 'probe_done', message: 'done' });
    emit({ type: 'text_delta', message: 'hi', data: { text: 'hi' } });
    expect(seen.map((e) => [e.type, e.type === 'custom' ? e.name : undefined, e.data])).toEqual([
      ['custom', 'probe_progress', { pct: 50 }],
      ['custom', 'probe_done', {}],
      ['text_delta', undefined, { text: 'hi' }],
    ]);
  });

  it('a custom event without a name is named `custom`, never left nameless', () => {
    const input = { type: 'custom', message: 'x' } as unknown as EventInput;
    expect(closedInput(input)).toEqual({ type: 'custom', name: 'custom', message: 'x' });
  });

  it('a stored event of an older run, of its own type, reads back as custom', () => {
    const row = JSON.stringify({ ...envelope, type: 'probe_progress', data: { pct: 50 } });
    expect(restoreEvent(parseStoredEvent(row), undefined)).toEqual({
      ...envelope,
      type: 'custom',
      name: 'probe_progress',
      data: { pct: 50 },
    });
    const custom = { ...envelope, type: 'custom', name: 'probe_done', data: {} };
    expect(restoreEvent(parseStoredEvent(JSON.stringify(custom)), undefined)).toEqual(custom);
  });

  it('a recorded well-known event is kept as it is', () => {
    const event = { ...envelope, type: 'text_delta', data: { text: 'hi' } };
    expect(closedEvent(event)).toBe(event);
  });
});
