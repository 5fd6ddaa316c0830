import { describe, expect, it } from 'vitest';
import type { CadreEvent, EventDataMap, RunEvent, WellKnownEventType } from '../api/wire-types.js';
import { buildExecutionTree, timelineRows } from './event-tree.js';

const event = <T extends WellKnownEventType>(
  seq: number,
  type: T,
  data: Partial<EventDataMap[T]> & Record<string, unknown>,
): RunEvent => ({
  runId: 'r1',
  seq,
  type,
  event: {
    type,
    message: type === 'context_compacted' ? 'Earlier conversation summarised' : type,
    timestamp: new Date(Date.UTC(2026, 0, 1) + seq).toISOString(),
    data,
    runId: 'r1',
    executionId: 'root',
    depth: 0,
    path: ['root'],
    seq,
  } as CadreEvent,
});

describe('a summarised conversation in the run timeline', () => {
  it('reads "earlier conversation summarised" with its token figures, and counts the summary call', () => {
    const [root] = buildExecutionTree([
      event(1, 'run_started', {}),
      event(2, 'usage', { inputTokens: 600, outputTokens: 40, totalTokens: 640 }),
      event(3, 'context_compacted', { scope: 'run', tokensBefore: 8500, tokensAfter: 2100 }),
    ]);
    const rows = root ? timelineRows(root) : [];
    expect(rows.at(-1)).toMatchObject({
      kind: 'event',
      text: 'Earlier conversation summarised (8,500 → about 2,100 tokens)',
    });
    expect(root?.usage.totalTokens).toBe(640);
  });
});
