import { describe, expect, it } from 'vitest';
import type { ApprovalView, ThreadView } from '../api/wire-types.js';
import { runInFlight } from './run-in-flight.js';

const message = (seq: number, role: 'user' | 'assistant', content: string, runId?: string) => ({
  id: `m${seq}`,
  threadId: 't1',
  seq,
  role,
  content,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...(runId ? { runId } : {}),
});
const view = (messages: ThreadView['messages'], pending: string[] = []): ThreadView => ({
  thread: { id: 't1', userId: 'u', title: 'x', createdAt: '', updatedAt: '' },
  messages,
  pendingApprovals: pending.map((runId) => ({ runId }) as ApprovalView),
});

describe('which run a reloaded page re-attaches to', () => {
  it('a prompt with no reply yet is still running', () => {
    expect(runInFlight(view([message(1, 'user', 'Hi', 'r1')]))).toBe('r1');
  });

  it('a reply means the run is at rest', () => {
    expect(
      runInFlight(view([message(1, 'user', 'Hi', 'r1'), message(2, 'assistant', 'Hello', 'r1')])),
    ).toBeUndefined();
  });

  it('a run waiting for approval is at rest; once decided elsewhere it runs again', () => {
    const messages = [
      message(1, 'user', 'Mail Bob', 'r1'),
      message(2, 'assistant', 'I need your approval to:\n- mail bob', 'r1'),
    ];
    expect(runInFlight(view(messages, ['r1']))).toBeUndefined();
    expect(runInFlight(view(messages, []))).toBe('r1');
  });

  it('only the newest run counts, and a thread without runs has none', () => {
    expect(runInFlight(view([]))).toBeUndefined();
    expect(
      runInFlight(
        view([
          message(1, 'user', 'a', 'r1'),
          message(2, 'assistant', 'b', 'r1'),
          message(3, 'user', 'c', 'r2'),
        ]),
      ),
    ).toBe('r2');
  });
});
