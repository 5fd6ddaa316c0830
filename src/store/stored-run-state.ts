import { readRunState } from '../contracts/run-state-version.js';
import { StoredDataError } from '../errors/stored-data-error.js';
import type { StoredRunState } from './records.js';

/**
 * A run's state column, read when asked: parsed, upgraded and checked as a
 * resume reads it (`readRunState`), once. Reading a run (a view, a lease, a
 * list of tasks) does not parse a state it does not use, and a damaged state
 * fails only the reader that needs it.
 */
export function storedRunState(runId: string, text: string): StoredRunState {
  let read: ReturnType<StoredRunState['read']> | undefined;
  return { read: () => (read ??= parseRunState(runId, text)) };
}

async function parseRunState(runId: string, text: string): ReturnType<StoredRunState['read']> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StoredDataError(`run state of run ${runId}`, [{ path: '', message: 'not JSON' }]);
  }
  return readRunState(value);
}
