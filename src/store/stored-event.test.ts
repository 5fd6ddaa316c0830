import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../events/types.js';
import {
  parseStoredEvent,
  restoreEvent,
  storedEventJson,
  storedEventsJson,
  wantsReply,
} from './stored-event.js';

const ANSWER = 'a long answer '.repeat(1_000);
const base = {
  timestamp: '2026-01-01T00:00:00.000Z',
  runId: 'r1',
  executionId: 'r1',
  depth: 0,
  path: ['a'],
  seq: 7,
};
const delta: CadreEvent = { ...base, type: 'text_delta', message: ANSWER, data: { text: ANSWER } };
const final: CadreEvent = {
  ...base,
  type: 'final_result',
  message: 'GOAL',
  data: {
    result: {
      run_id: 'r1',
      execution_id: 'r1',
      agent: 'a',
      terminate_reason: 'GOAL',
      final_message: ANSWER,
      content: ANSWER,
      output: ANSWER,
      emitted_vars: {},
      response_time_secs: 1,
      traces: [],
      usage: { inputTokens: 1, outputTokens: 1, thoughtTokens: 0, totalTokens: 2 },
      turns: 1,
    },
  },
};
const roundTrip = (event: CadreEvent, reply?: string, found = reply) => {
  const json = storedEventJson(event, reply);
  const stored = parseStoredEvent(json);
  return { json, event: restoreEvent(stored, wantsReply(stored) ? found : undefined) };
};

describe('stored events hold the answer once and come back whole', () => {
  it('a delta keeps its text once', () => {
    const { json, event } = roundTrip(delta);
    expect(json.length).toBeLessThan(ANSWER.length + 300);
    expect(event).toEqual(delta);
  });

  it("a final result points at the run's reply when it ends the run", () => {
    const { json, event } = roundTrip(final, ANSWER);
    expect(json.length).toBeLessThan(600);
    expect(event).toEqual(final);
  });

  it('without the reply it keeps the answer once, in final_message', () => {
    const { json, event } = roundTrip(final);
    expect(json.length).toBeLessThan(ANSWER.length + 700);
    expect(event).toEqual(final);
  });

  it('a subagent result, or one whose answer differs from the reply, is not pointed at the reply', () => {
    const child = { ...final, depth: 1 };
    expect(wantsReply(parseStoredEvent(storedEventJson(child, ANSWER)))).toBe(false);
    expect(roundTrip(child, ANSWER).event).toEqual(child);
    expect(wantsReply(parseStoredEvent(storedEventJson(final, 'other')))).toBe(false);
  });

  it('large top-level deltas stored with the reply are ranges of it; the rest keep their text', () => {
    const half = ANSWER.length / 2;
    const first = ANSWER.slice(0, half);
    const second = ANSWER.slice(half);
    const pieces: CadreEvent[] = [
      { ...delta, seq: 1, message: first, data: { text: first } },
      { ...delta, seq: 2, message: second, data: { text: second } },
      // Too short to look up, a subagent's, and text the reply does not hold.
      { ...delta, seq: 3, message: 'hi', data: { text: 'hi' } },
      { ...delta, seq: 4, depth: 1, message: first, data: { text: first } },
      { ...delta, seq: 5, message: `${first}!`, data: { text: `${first}!` } },
    ];
    const json = storedEventsJson(pieces, ANSWER);
    expect(json[0]?.length).toBeLessThan(300);
    expect(json[1]?.length).toBeLessThan(300);
    for (const index of [3, 4]) expect(json[index]?.length).toBeGreaterThan(half);
    const back = json.map((row) => {
      const stored = parseStoredEvent(row);
      return restoreEvent(stored, wantsReply(stored) ? ANSWER : undefined);
    });
    expect(back).toEqual(pieces);
    // Without a reply in the batch, every delta keeps its text.
    expect(storedEventsJson(pieces).map((row) => row.length > half)).toEqual([
      true,
      true,
      false,
      true,
      true,
    ]);
  });
});
