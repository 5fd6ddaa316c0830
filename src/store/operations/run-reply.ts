import type { Kysely } from 'kysely';
import type { Run, RunStatus } from '../records.js';
import type { Database } from '../schema/database.js';

/**
 * A completed run's summary is its answer, which its reply message already
 * holds: the runs row then keeps an empty summary, and readers are given the
 * reply. (Completed runs answer with their final message, so the two match.)
 */
export function storedSummary(status: RunStatus, summary: string, reply?: string): string {
  return status === 'completed' && reply !== undefined && summary === reply ? '' : summary;
}

/** The run's last assistant message: its answer, for a summary or final result left out. */
export async function replyOf(
  db: Kysely<Database>,
  runId: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('messages')
    .innerJoin('runs', 'runs.thread_id', 'messages.thread_id')
    .select('messages.content')
    .where('runs.id', '=', runId)
    .where('messages.run_id', '=', runId)
    .where('messages.role', '=', 'assistant')
    .orderBy('messages.seq', 'desc')
    .limit(1)
    .executeTakeFirst({ signal });
  return row?.content;
}

/** The run with its summary whole again (a completed run's is read from its reply). */
export async function withSummary(
  db: Kysely<Database>,
  run: Run,
  signal?: AbortSignal,
): Promise<Run> {
  if (run.status !== 'completed' || run.summary !== '') return run;
  const reply = await replyOf(db, run.id, signal);
  return reply ? { ...run, summary: reply } : run;
}
