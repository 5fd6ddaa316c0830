import { describe, expect, it } from 'vitest';
import type { CadreEvent, EventDataMap, RunEvent, WellKnownEventType } from '../api/wire-types.js';
import { buildExecutionTree, timelineRows, treeUsage } from './event-tree.js';

let seq = 0;
function ev<T extends WellKnownEventType>(
  executionId: string,
  type: T,
  data: Partial<EventDataMap[T]> & Record<string, unknown> = {},
  extra: { parent?: string; depth?: number; at?: number; message?: string } = {},
): RunEvent {
  seq += 1;
  return {
    runId: 'r1',
    seq,
    type,
    event: {
      type,
      message: extra.message ?? type,
      timestamp: new Date(Date.UTC(2026, 0, 1) + (extra.at ?? seq)).toISOString(),
      data,
      runId: 'r1',
      executionId,
      ...(extra.parent ? { parentExecutionId: extra.parent } : {}),
      depth: extra.depth ?? 0,
      path: extra.parent ? ['root', executionId] : ['root'],
      seq,
    } as CadreEvent,
  };
}

describe('execution tree of a run timeline', () => {
  const child = { parent: 'root', depth: 1 };
  const events = [
    ev('root', 'run_started', {}, { at: 0 }),
    ev('root', 'usage', { inputTokens: 10, outputTokens: 5, totalTokens: 15, costUsd: 0.002 }),
    ev('root', 'subagent_started', { executionId: 'kid' }),
    ev('kid', 'text_delta', {}, { ...child, message: 'Hel' }),
    ev('kid', 'text_delta', {}, { ...child, message: 'lo' }),
    ev('kid', 'usage', { inputTokens: 3, outputTokens: 2 }, child),
    ev('root', 'subagent_finished', { executionId: 'kid' }),
    ev('root', 'tool_result', { durationMs: 42 }),
    ev('root', 'final_result', {}, { at: 250 }),
  ];

  it('nests subagents under their parent, with durations and tokens', () => {
    const [root, ...others] = buildExecutionTree(events);
    expect(others).toEqual([]);
    expect(root).toMatchObject({ agent: 'root', durationMs: 250, usage: { totalTokens: 15 } });
    expect(root?.children.map((c) => [c.agent, c.depth, c.usage.totalTokens])).toEqual([
      ['kid', 1, 5],
    ]);
    expect(root && treeUsage(root).totalTokens).toBe(20);
    // Cost is summed only where the server priced the call.
    expect(root?.usage.costUsd).toBe(0.002);
    expect(root?.children[0]?.usage.costUsd).toBeUndefined();
  });

  it('places a subagent where it started and merges its text deltas into one row', () => {
    const [root] = buildExecutionTree(events);
    const rows = root ? timelineRows(root) : [];
    expect(rows.map((r) => (r.kind === 'child' ? `child:${r.node.agent}` : r.event.type))).toEqual([
      'run_started',
      'usage',
      'subagent_started',
      'child:kid',
      'subagent_finished',
      'tool_result',
      'final_result',
    ]);
    const kid = root?.children[0];
    const kidRows = kid ? timelineRows(kid) : [];
    expect(kidRows[0]).toMatchObject({ kind: 'event', text: 'Hello' });
    expect(rows[5]).toMatchObject({ durationMs: 42 });
  });
});
