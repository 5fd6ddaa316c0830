import { describe, expect, it } from 'vitest';
import type { CadreEvent, EventDataMap, RunEvent, WellKnownEventType } from '../api/wire-types.js';
import { runTree, type TreeRow } from './run-tree.js';

let seq = 0;
function ev<T extends WellKnownEventType>(
  executionId: string,
  type: T,
  data: Record<string, unknown> & Partial<Record<keyof EventDataMap[T], unknown>> = {},
): RunEvent {
  seq += 1;
  const child = executionId !== 'root';
  return {
    runId: 'r1',
    seq,
    type,
    event: {
      type,
      message: type,
      timestamp: new Date(Date.UTC(2026, 0, 1) + seq).toISOString(),
      data,
      runId: 'r1',
      executionId,
      ...(child ? { parentExecutionId: 'root' } : {}),
      depth: child ? 1 : 0,
      path: child ? ['boss', 'mailer'] : ['boss'],
      seq,
    } as CadreEvent,
  };
}

const flat = (rows: TreeRow[]): [string, string, number, number, string[]][] =>
  rows.flatMap((r) => [
    [r.node.agent, r.state, r.turns, r.toolCalls, r.approvalIds] as [
      string,
      string,
      number,
      number,
      string[],
    ],
    ...flat(r.children),
  ]);

describe('run tree: each execution with its state, turns and tool calls', () => {
  const started = [
    ev('root', 'run_started'),
    ev('root', 'turn_started'),
    ev('root', 'tool_call', { callId: 'c1', tool: 'task' }),
    ev('root', 'subagent_started', { executionId: 'kid', agent: 'mailer', callId: 'c1' }),
    ev('kid', 'turn_started'),
    ev('kid', 'tool_call', { callId: 'k1', tool: 'gmail_send' }),
    ev('kid', 'approval_required', { callId: 'k1', tool: 'gmail_send' }),
  ];
  const approval = { id: 'a1', callId: 'mailer@1a2b/k1', status: 'pending' as const };

  it('marks the subagent whose call waits for a person, with its approval', () => {
    const rows = runTree(started, { status: 'awaiting_confirmation' }, [approval]);
    expect(flat(rows)).toEqual([
      ['boss', 'running', 1, 1, []],
      ['mailer', 'waiting', 1, 1, ['a1']],
    ]);
    // Paused (stored after the run stopped to ask): only the asker is marked as waiting.
    const paused = [...started, ev('kid', 'run_paused'), ev('root', 'run_paused')];
    expect(flat(runTree(paused, { status: 'awaiting_confirmation' }, [approval]))).toEqual([
      ['boss', 'running', 1, 1, []],
      ['mailer', 'waiting', 1, 1, ['a1']],
    ]);
  });

  it('no longer waits once the approval is decided, and shows how each ended', () => {
    const done = [
      ...started,
      ev('kid', 'approval_resolved', { callId: 'k1', tool: 'gmail_send' }),
      ev('kid', 'tool_result', { callId: 'k1' }),
      ev('kid', 'final_result', { result: { terminate_reason: 'GOAL' } }),
      ev('root', 'subagent_finished', { executionId: 'kid', terminate_reason: 'GOAL' }),
      ev('root', 'tool_result', { callId: 'c1' }),
      ev('root', 'final_result', { result: { terminate_reason: 'ERROR' } }),
    ];
    const rows = runTree(done, { status: 'failed' }, [{ ...approval, status: 'approved' }]);
    expect(flat(rows)).toEqual([
      ['boss', 'failed', 1, 1, []],
      ['mailer', 'completed', 1, 1, []],
    ]);
  });

  it('an execution that never said how it ended ends as its run did (cancelled)', () => {
    const rows = runTree(started, { status: 'cancelled' }, []);
    expect(flat(rows).map(([agent, state]) => [agent, state])).toEqual([
      ['boss', 'cancelled'],
      ['mailer', 'cancelled'],
    ]);
  });
});
