import type { CadreEvent } from '../events/types.js';

/** Members that differ between two runs of the same thing: ids, clocks, durations. */
const VOLATILE = new Set([
  'timestamp',
  'runId',
  'run_id',
  'executionId',
  'execution_id',
  'parentExecutionId',
  'durationMs',
  'duration_ms',
  'duration_secs',
  'response_time_secs',
]);

/**
 * Events with ids, timestamps and durations removed (at any depth, UUIDs
 * inside text masked), so a
 * replay can be compared with its recording: equal runs give equal lists.
 */
export function comparableEvents(events: readonly CadreEvent[]): unknown[] {
  return events.map(strip);
}

/** Random ids (a child's execution id) also turn up inside text, e.g. a trace's output. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

function strip(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(UUID, '<id>');
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value))
    if (!VOLATILE.has(key)) out[key] = strip(member);
  return out;
}
