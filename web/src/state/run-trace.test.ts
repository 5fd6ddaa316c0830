import { describe, expect, it } from 'vitest';
import type { StreamLine } from '../api/stream-line.js';
import type {
  CadreEvent,
  EventDataMap,
  RunResponse,
  WellKnownEventType,
} from '../api/wire-types.js';
import { applyLine, emptyTrace, seedStep, type RunTrace } from './run-trace.js';

const event = <T extends WellKnownEventType>(
  type: T,
  data: Partial<EventDataMap[T]> & Record<string, unknown>,
  depth = 0,
): StreamLine => ({
  type: 'event',
  event: {
    type,
    message: type,
    timestamp: '2026-01-01T00:00:00.000Z',
    data,
    runId: 'r1',
    executionId: 'e1',
    depth,
    path: ['assistant'],
    seq: 1,
  } as CadreEvent,
});

const fold = (lines: StreamLine[], start: RunTrace = emptyTrace()) =>
  lines.reduce(applyLine, start);
const call: StreamLine = {
  type: 'tool_call',
  tool: 'gmail_send',
  callId: 'c1',
  args: {},
  summary: 'gmail_send(…)',
  depth: 0,
};

describe('run trace: what the chat shows of a streamed run', () => {
  it('appends text and thoughts as they arrive', () => {
    const trace = fold([
      { type: 'thought_delta', delta: 'Hm. ' },
      { type: 'delta', delta: 'Hel' },
      { type: 'delta', delta: 'lo' },
    ]);
    expect(trace).toMatchObject({ text: 'Hello', thoughts: 'Hm. ' });
  });

  it('follows one call from running to awaiting approval to done', () => {
    const paused = fold([call, { type: 'approval_required', tool: 'gmail_send', callId: 'c1' }]);
    expect(paused.steps).toEqual([
      expect.objectContaining({ key: 'c1', state: 'awaiting_approval' }),
    ]);
    const done = fold(
      [
        event('approval_resolved', { callId: 'c1', tool: 'gmail_send', decision: 'approve' }),
        event('tool_result', { callId: 'c1', tool: 'gmail_send', ok: true, durationMs: 12 }),
      ],
      paused,
    );
    expect(done.steps).toEqual([
      expect.objectContaining({ key: 'c1', state: 'done', durationMs: 12 }),
    ]);
  });

  it('a call run under an always-allow grant says whose rule let it through, and since when', () => {
    const createdAt = '2026-11-26T02:05:00.000Z';
    const trace = fold([
      call,
      event('grant_applied', {
        callId: 'c1',
        tool: 'gmail_send',
        grants: [{ id: 'g1', recipient: 'ana@example.com', agent: 'assistant', createdAt }],
      }),
      event('tool_result', { callId: 'c1', tool: 'gmail_send', ok: true }),
    ]);
    const time = new Date(createdAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    expect(trace.steps).toEqual([
      expect.objectContaining({
        key: 'c1',
        state: 'done',
        allowedBy: `allowed by your rule for ana@example.com, set ${time}`,
      }),
    ]);
  });

  it('keeps a rejected call rejected although its result is an error', () => {
    const trace = fold([
      call,
      event('approval_resolved', { callId: 'c1', tool: 'gmail_send', decision: 'reject' }),
      event('tool_result', { callId: 'c1', tool: 'gmail_send', ok: false, error: 'rejected' }),
    ]);
    expect(trace.steps[0]?.state).toBe('rejected');
  });

  it('after a reload, a step seeded from the card is the one the resumed run finishes', () => {
    const seeded = seedStep(emptyTrace('r1'), 'approval-1', 'gmail_send', 'Send "Hi" to bob');
    const trace = fold(
      [event('tool_result', { callId: 'c9', tool: 'gmail_send', ok: true, durationMs: 5 })],
      seeded,
    );
    expect(trace.steps).toEqual([
      expect.objectContaining({ key: 'approval-1', summary: 'Send "Hi" to bob', state: 'done' }),
    ]);
  });

  it('keeps the result and the error', () => {
    const result: RunResponse = {
      ok: true,
      runId: 'r1',
      threadId: 't1',
      status: 'completed',
      summary: 'ok',
      actions: [],
      approvals: [],
    };
    expect(fold([{ type: 'result', result }])).toMatchObject({
      runId: 'r1',
      status: 'completed',
      result,
    });
    expect(
      fold([{ type: 'error', error: { code: 'model_error', message: 'down' } }]),
    ).toMatchObject({
      status: 'failed',
      error: { code: 'model_error' },
    });
  });
});
