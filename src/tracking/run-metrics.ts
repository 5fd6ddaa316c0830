import type { CadreEvent } from '../events/types.js';
import { addUsage, emptyUsage, type Usage } from '../model/types.js';
import type { TerminateReason } from '../contracts/run-result.js';
import { executionSpans, parallelSpeedup } from './execution-spans.js';
import { isRootFinalResult, resultOf } from './final-result.js';

/** What a finished (or interrupted) run cost, computed from its events alone. */
export interface RunMetrics {
  /** Wall clock of the root execution. */
  durationMs: number;
  /** Tool calls across the tree (a react agent's actions included). */
  steps: number;
  /** Model calls across the tree. */
  turns: number;
  /** Total tokens of every `usage` event across the tree. */
  tokens: number;
  usage: Usage;
  /** Model calls that reported no usage: counted, never taken as zero. */
  tokensUnavailableCount: number;
  subagents: number;
  /** Child time over wall time where a parent's children overlapped; 1 when sequential. */
  parallelSpeedup: number;
  terminateReason?: TerminateReason;
}

const STEP_EVENTS: ReadonlySet<string> = new Set(['tool_call', 'react_action']);

/** Pure: the same events always give the same metrics, live or replayed. */
function fromEvents(events: readonly CadreEvent[]): RunMetrics {
  let usage = emptyUsage();
  let steps = 0;
  let turns = 0;
  let unavailable = 0;
  let terminateReason: TerminateReason | undefined;
  // Per execution: did its latest model call report usage yet?
  const awaitingUsage = new Set<string>();
  const children = new Set<string>();
  for (const event of events) {
    if (event.depth > 0) children.add(event.executionId);
    switch (event.type) {
      case 'turn_started':
        turns++;
        if (awaitingUsage.has(event.executionId)) unavailable++;
        awaitingUsage.add(event.executionId);
        break;
      case 'usage':
        usage = addUsage(usage, usageOf(event.data));
        awaitingUsage.delete(event.executionId);
        break;
      case 'subagent_started':
        if (typeof event.data.executionId === 'string') children.add(event.data.executionId);
        break;
      case 'final_result':
        if (awaitingUsage.delete(event.executionId)) unavailable++;
        if (isRootFinalResult(event)) terminateReason ??= resultOf(event)?.terminate_reason;
        break;
      default:
        if (STEP_EVENTS.has(event.type)) steps++;
    }
  }
  unavailable += awaitingUsage.size;
  const spans = executionSpans(events);
  const rootId = events.find((e) => e.depth === 0)?.executionId;
  const root = rootId === undefined ? undefined : spans.get(rootId);
  return {
    durationMs: root ? root.endMs - root.startMs : 0,
    steps,
    turns,
    tokens: usage.totalTokens,
    usage,
    tokensUnavailableCount: unavailable,
    subagents: children.size,
    parallelSpeedup: parallelSpeedup(spans.values()),
    ...(terminateReason ? { terminateReason } : {}),
  };
}

function usageOf(data: Record<string, unknown>): Usage {
  const n = (key: keyof Usage): number => {
    const value = data[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : 0;
  };
  return {
    inputTokens: n('inputTokens'),
    outputTokens: n('outputTokens'),
    thoughtTokens: n('thoughtTokens'),
    totalTokens: n('totalTokens'),
  };
}

export const RunMetrics = { fromEvents } as const;
