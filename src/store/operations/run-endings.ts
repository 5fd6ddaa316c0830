import type { Kysely } from 'kysely';
import type { Database } from '../schema/database.js';

/** What every run that ends (or pauses) leaves behind: no job, no owner, no lease. */
export const released = (time: string) => ({
  job: null,
  owner: null,
  lease_until: null,
  updated_at: time,
});

/** A cancelled run's fields: `cancelled` (its code too), finished now. */
export const cancelledRun = (time: string) => ({
  ...released(time),
  status: 'cancelled',
  error_code: 'cancelled',
  summary: 'Cancelled.',
  finished_at: time,
});

/**
 * Closes what a cancelled run left waiting for a person: its pending approvals
 * are rejected and the calls they guarded never run.
 */
export async function closeWaiting(
  db: Kysely<Database>,
  runId: string,
  time: string,
): Promise<void> {
  await db
    .updateTable('approvals')
    .set({
      status: 'rejected',
      decision: 'reject',
      feedback: 'The run was cancelled.',
      resolved_at: time,
    })
    .where('run_id', '=', runId)
    .where('status', '=', 'pending')
    .execute();
  await db
    .updateTable('actions')
    .set({ status: 'rejected', error_code: 'cancelled', updated_at: time, finished_at: time })
    .where('run_id', '=', runId)
    .where('status', '=', 'awaiting_confirmation')
    .execute();
}
