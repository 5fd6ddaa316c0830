import type { CadreEvent } from '../events/types.js';
import { resultOf } from './final-result.js';

/** When one execution ran, in epoch milliseconds. */
export interface ExecutionSpan {
  executionId: string;
  parentId?: string;
  depth: number;
  startMs: number;
  endMs: number;
  finished: boolean;
}

/**
 * One span per execution: from its first event to its final_result (or its
 * last event). A result's response_time_secs is finer than the ISO
 * timestamps (whole milliseconds), so it sets the length when present.
 */
export function executionSpans(events: readonly CadreEvent[]): Map<string, ExecutionSpan> {
  const spans = new Map<string, ExecutionSpan>();
  for (const event of events) {
    const at = Date.parse(event.timestamp);
    if (Number.isNaN(at)) continue;
    let span = spans.get(event.executionId);
    if (!span) {
      span = {
        executionId: event.executionId,
        ...(event.parentExecutionId ? { parentId: event.parentExecutionId } : {}),
        depth: event.depth,
        startMs: at,
        endMs: at,
        finished: false,
      };
      spans.set(event.executionId, span);
    }
    if (span.finished) continue;
    span.endMs = Math.max(span.endMs, at);
    if (event.type !== 'final_result') continue;
    span.finished = true;
    const seconds = resultOf(event)?.response_time_secs;
    if (typeof seconds === 'number' && seconds >= 0) span.startMs = span.endMs - seconds * 1000;
  }
  return spans;
}

/**
 * Sum of child durations over the wall time they took, counted only where a
 * parent's children overlapped; 1 when every child ran alone.
 */
export function parallelSpeedup(spans: Iterable<ExecutionSpan>): number {
  const byParent = new Map<string, ExecutionSpan[]>();
  for (const span of spans) {
    if (span.parentId === undefined) continue;
    byParent.set(span.parentId, [...(byParent.get(span.parentId) ?? []), span]);
  }
  let childTime = 0;
  let wallTime = 0;
  for (const children of byParent.values()) {
    for (const group of overlappingGroups(children)) {
      if (group.length < 2) continue;
      childTime += group.reduce((sum, s) => sum + (s.endMs - s.startMs), 0);
      wallTime += Math.max(...group.map((s) => s.endMs)) - Math.min(...group.map((s) => s.startMs));
    }
  }
  return wallTime > 0 && childTime > wallTime ? childTime / wallTime : 1;
}

/** Spans grouped so that each group's union is one unbroken interval. */
function overlappingGroups(spans: readonly ExecutionSpan[]): ExecutionSpan[][] {
  const sorted = [...spans].sort((a, b) => a.startMs - b.startMs);
  const groups: ExecutionSpan[][] = [];
  let current: ExecutionSpan[] = [];
  let currentEnd = -Infinity;
  for (const span of sorted) {
    if (current.length > 0 && span.startMs >= currentEnd) {
      groups.push(current);
      current = [];
    }
    current.push(span);
    currentEnd = current.length === 1 ? span.endMs : Math.max(currentEnd, span.endMs);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
