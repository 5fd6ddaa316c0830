import { now, writeTransaction, type StoreContext } from '../store-context.js';
import type { Recovery } from '../types.js';

export const INTERRUPTED = 'interrupted';

/**
 * Start-up repair. A run caught planning or executing cannot be continued
 * (its process is gone); an action caught executing may or may not have had
 * its effect, so it is failed, never re-run. Pending approvals and runs
 * awaiting confirmation wait for a person and stay as they are.
 */
export function recoverInterrupted(context: StoreContext, signal?: AbortSignal): Promise<Recovery> {
  return writeTransaction(
    context,
    async (db) => {
      const time = now();
      const runs = await db
        .updateTable('runs')
        .set({ status: 'failed', error_code: INTERRUPTED, updated_at: time, finished_at: time })
        .where('status', 'in', ['planning', 'executing'])
        .executeTakeFirst();
      const actions = await db
        .updateTable('actions')
        .set({
          status: 'failed',
          error_code: INTERRUPTED,
          error_message: 'The process stopped while this action ran; it was not retried.',
          updated_at: time,
          finished_at: time,
        })
        .where('status', '=', 'executing')
        .executeTakeFirst();
      return { runs: Number(runs.numUpdatedRows), actions: Number(actions.numUpdatedRows) };
    },
    signal,
  );
}
