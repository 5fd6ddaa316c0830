// Test-only: hand-made event streams with controlled timestamps.
import type { CadreEvent } from '../events/types.js';

export interface Exec {
  id: string;
  parent?: string;
  path: string[];
}

export const ROOT: Exec = { id: 'root', path: ['agent'] };
export const childOf = (parent: Exec, id: string, agent = 'child'): Exec => ({
  id,
  parent: parent.id,
  path: [...parent.path, agent],
});

/** Builds events in order; `at` is milliseconds after a fixed epoch. */
export function eventLog(): {
  events: CadreEvent[];
  add(
    exec: Exec,
    type: string,
    at: number,
    data?: Record<string, unknown>,
    message?: string,
  ): CadreEvent;
} {
  const events: CadreEvent[] = [];
  const base = Date.parse('2030-01-01T00:00:00.000Z');
  return {
    events,
    add(exec, type, at, data = {}, message = type) {
      const event: CadreEvent = {
        type,
        message,
        timestamp: new Date(base + at).toISOString(),
        data,
        runId: 'run',
        executionId: exec.id,
        ...(exec.parent ? { parentExecutionId: exec.parent } : {}),
        depth: exec.path.length - 1,
        path: exec.path,
        seq: events.length + 1,
      };
      events.push(event);
      return event;
    },
  };
}

/** The data of a final_result as the runners write it. */
export const finalData = (reason: string, content = 'done'): Record<string, unknown> => ({
  result: { terminate_reason: reason, content },
});
