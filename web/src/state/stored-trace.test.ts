import { describe, expect, it } from 'vitest';
import type {
  CadreEvent,
  DecisionView,
  EventDataMap,
  ThreadMessage,
  ThreadRunView,
  WellKnownEventType,
} from '../api/wire-types.js';
import { emptyTrace, seedStep } from './run-trace.js';
import { decisionsByMessage, markDecided, mergeTraces, storedTrace } from './stored-trace.js';

const event = <T extends WellKnownEventType>(
  seq: number,
  type: T,
  data: Partial<EventDataMap[T]> & Record<string, unknown>,
): CadreEvent =>
  ({
    type,
    message: type,
    timestamp: '2026-01-01T14:02:00.000Z',
    data,
    runId: 'r1',
    executionId: 'e1',
    depth: 0,
    path: ['assistant'],
    seq,
  }) as CadreEvent;

const decision = (overrides: Partial<DecisionView> = {}): DecisionView => ({
  approvalId: 'a1',
  callId: 'c1',
  tool: 'gmail_send',
  askedAt: '2026-01-01T14:01:00.000Z',
  decision: 'approve_once',
  decidedBy: 'ann',
  decidedAt: '2026-01-01T14:02:00.000Z',
  ...overrides,
});

const asked = [
  event(1, 'tool_call', { callId: 'c1', tool: 'gmail_send', args: { to: 'bob@example.com' } }),
  event(2, 'approval_required', { callId: 'c1', tool: 'gmail_send', preview: 'Send "Hi" to bob' }),
];

describe('stored traces: a thread’s steps and decisions after a reload', () => {
  it('rebuilds the steps of a finished run with who approved the call', () => {
    const run: ThreadRunView = {
      runId: 'r1',
      steps: [
        ...asked,
        event(3, 'approval_resolved', { callId: 'c1', tool: 'gmail_send', decision: 'approve' }),
        event(4, 'tool_result', { callId: 'c1', tool: 'gmail_send', ok: true, durationMs: 30 }),
      ],
      decisions: [decision()],
    };
    expect(storedTrace(run).steps).toEqual([
      {
        key: 'c1',
        tool: 'gmail_send',
        summary: 'gmail_send(to: "bob@example.com")',
        preview: 'Send "Hi" to bob',
        state: 'done',
        depth: 0,
        durationMs: 30,
        decision: decision(),
      },
    ]);
  });

  it('shows a decision already stored before the resumed run wrote anything', () => {
    const rejected = decision({ decision: 'reject', feedback: 'Ask Carol' });
    const trace = storedTrace({ runId: 'r1', steps: asked, decisions: [rejected] });
    expect(trace.steps[0]).toMatchObject({ state: 'rejected', decision: rejected });
    const waiting = storedTrace({ runId: 'r1', steps: asked, decisions: [] });
    expect(waiting.steps[0]?.state).toBe('awaiting_approval');
  });

  it('keeps the thoughts the page saw streaming, which the server does not store', () => {
    const streamed = { runId: 'r1', text: 'x', thoughts: 'Hm.', steps: [] };
    const merged = mergeTraces([{ runId: 'r1', steps: asked, decisions: [] }], {
      r1: streamed,
      r2: { ...streamed, runId: 'r2' },
    });
    expect(merged.r1).toMatchObject({ thoughts: 'Hm.', steps: [{ key: 'c1' }] });
    expect(merged.r2).toEqual({ ...streamed, runId: 'r2' });
  });

  it('puts each decision on the message that asked for it', () => {
    const message = (id: string, content: string, createdAt: string): ThreadMessage => ({
      id,
      threadId: 't1',
      seq: Number(id.slice(1)),
      role: 'assistant',
      content,
      runId: 'r1',
      createdAt,
    });
    const messages = [
      message('m1', 'I need your approval to:\n- a', '2026-01-01T14:01:00.000Z'),
      message('m2', 'I need your approval to:\n- b', '2026-01-01T14:05:00.000Z'),
      message('m3', 'Done.', '2026-01-01T14:06:00.000Z'),
    ];
    const first = decision();
    const second = decision({ approvalId: 'a2', askedAt: '2026-01-01T14:05:00.000Z' });
    const byMessage = decisionsByMessage(messages, [
      { runId: 'r1', steps: [], decisions: [first, second] },
    ]);
    expect(byMessage.get('m1')).toEqual([first]);
    expect(byMessage.get('m2')).toEqual([second]);
    expect(byMessage.has('m3')).toBe(false);
  });

  it('turns the waiting step of a card into its decision once the server stored it', () => {
    const waiting = storedTrace({ runId: 'r1', steps: asked, decisions: [] });
    const card = { approvalId: 'a1', tool: 'gmail_send' };
    expect(markDecided(waiting, card, 'approve_once').steps[0]?.state).toBe('approved');
    expect(markDecided(waiting, card, 'reject').steps[0]?.state).toBe('rejected');
    // Seeded from the card alone (its key is the approval id).
    const seeded = seedStep(emptyTrace('r1'), 'a1', 'gmail_send', 'Send "Hi" to bob');
    expect(markDecided(seeded, card, 'approve_once').steps[0]?.state).toBe('approved');
    expect(markDecided(seeded, { ...card, tool: 'other' }, 'reject')).toBe(seeded);
  });
});
