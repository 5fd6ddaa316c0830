import { sql } from 'kysely';
import type { Approval, Run } from '../records.js';
import { toApproval, toRun } from '../rows.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';
import type { FinishRun, PauseRun } from '../types.js';
import { approvalRows } from './approvals.js';
import { cancelledRun, closeWaiting, released } from './run-endings.js';
import { notify, RUN_CHANNEL } from './run-queue.js';
import { afterLargeReply } from './large-write.js';
import { insertMessage } from './threads.js';
import { insertOwnedEvents, lastSeq } from './owned-events.js';
import { storedSummary } from './run-reply.js';

/**
 * A run pauses for approval in one transaction, by its owner only: the
 * approvals (one batch; a call that already has one keeps it), the
 * assistant's message, and the run `awaiting_confirmation` with its state.
 * Undefined when the caller no longer owns the run.
 */
export function pauseRun(
  context: StoreContext,
  runId: string,
  input: PauseRun,
  signal?: AbortSignal,
): Promise<{ run: Run; approvals: Approval[] } | undefined> {
  return writeTransaction(
    context,
    async (db) => {
      const time = now();
      // Cancelled while it ran: it ends here instead of waiting for a person.
      const cancelled = await db
        .updateTable('runs')
        .set({
          ...cancelledRun(time),
          state: JSON.stringify(input.state),
          ...(input.events ? { event_seq: lastSeq(input.events) } : {}),
        })
        .where('id', '=', runId)
        .where('owner', '=', input.owner)
        .where('cancel_requested', '=', 1)
        .returningAll()
        .executeTakeFirst();
      if (cancelled !== undefined) {
        if (input.events) await insertOwnedEvents(db, context.dialect, runId, input.events, time);
        await closeWaiting(db, runId, time);
        await notify(db, context, RUN_CHANNEL, runId);
        return { run: toRun(cancelled), approvals: [] };
      }
      const run = await db
        .updateTable('runs')
        .set({
          ...(input.events ? { event_seq: lastSeq(input.events) } : {}),
          status: 'awaiting_confirmation',
          state: JSON.stringify(input.state),
          summary: input.summary,
          usage: JSON.stringify(input.state.usage),
          ...released(time),
        })
        .where('id', '=', runId)
        .where('owner', '=', input.owner)
        .returningAll()
        .executeTakeFirst();
      if (run === undefined) return undefined;
      if (input.events) await insertOwnedEvents(db, context.dialect, runId, input.events, time);
      const rows = approvalRows(
        context,
        input.approvals.map((item) => ({ ...item, runId })),
        time,
      );
      // A run taken over mid-pause asks again for the same calls: their approvals stay as they were.
      if (rows.length > 0) {
        // An approval of a call asked about again did not run it: it is stale, superseded by the new one.
        await db
          .updateTable('approvals')
          .set({ status: 'stale' })
          .where(
            'action_id',
            'in',
            rows.map((r) => r.action_id),
          )
          .where('status', '=', 'approved')
          .execute();
        await db
          .insertInto('approvals')
          .values(rows)
          .onConflict((c) =>
            // A literal: the target must repeat the partial unique index's predicate.
            c.column('action_id').where('status', '=', sql.lit('pending')).doNothing(),
          )
          .execute();
      }
      await insertMessage(
        context,
        db,
        { threadId: run.thread_id, role: 'assistant', content: input.message, runId },
        time,
      );
      await notify(db, context, RUN_CHANNEL, runId);
      const approvals = await db
        .selectFrom('approvals')
        .selectAll()
        .where('run_id', '=', runId)
        .where('status', '=', 'pending')
        .orderBy('id')
        .execute();
      return { run: toRun(run), approvals: approvals.map(toApproval) };
    },
    signal,
  );
}

/** A run ends in one transaction, by its owner only: the reply message and the final status. */
export async function finishRun(
  context: StoreContext,
  runId: string,
  input: FinishRun,
  signal?: AbortSignal,
): Promise<Run | undefined> {
  const finished = await context.grouped(async (db) => {
    const time = now();
    const run = await db
      .updateTable('runs')
      .set({
        ...(input.events ? { event_seq: lastSeq(input.events) } : {}),
        status: input.status,
        summary: storedSummary(input.status, input.summary, input.message),
        usage: JSON.stringify(input.usage),
        error_code: input.errorCode ?? null,
        ...(input.state !== undefined ? { state: JSON.stringify(input.state) } : {}),
        ...released(time),
        finished_at: time,
      })
      .where('id', '=', runId)
      .where('owner', '=', input.owner)
      .returningAll()
      .executeTakeFirst();
    if (run === undefined) return undefined;
    if (input.events)
      await insertOwnedEvents(db, context.dialect, runId, input.events, time, input.message);
    if (input.message !== undefined)
      await insertMessage(
        context,
        db,
        { threadId: run.thread_id, role: 'assistant', content: input.message, runId },
        time,
      );
    await notify(db, context, RUN_CHANNEL, runId);
    return { ...toRun(run), summary: input.summary };
  }, signal);
  await afterLargeReply(context, input.message);
  return finished;
}
