import { sql, type Kysely } from 'kysely';
import { emptyUsage } from '../../model/types.js';
import type { Action, Run } from '../records.js';
import { toAction, toLeasedRun, toMessage, toRun, toThread } from '../rows.js';
import type { Database, RunRow } from '../schema/database.js';
import { later, now, writeTransaction, type StoreContext } from '../store-context.js';
import { openThread, startJob } from './run-start.js';
import { cancelledRun, closeWaiting } from './run-endings.js';
import { storeDefinition } from './definitions.js';
import type { LeasedRun, Enqueued, EnqueueRun, Lease, LeaseRenewal } from '../types.js';
import { withSummary } from './run-reply.js';

/** PostgreSQL channels: a run's log or status changed (payload: run id); a run was queued. */
export const RUN_CHANNEL = 'cadre_run';
export const QUEUE_CHANNEL = 'cadre_queue';

export const INTERRUPTED_MESSAGE =
  'The process running this action stopped before it reported back: it may or may not have happened.';

/** Delivered at commit (PostgreSQL only); SQLite processes poll. */
export async function notify(
  db: Kysely<Database>,
  context: Pick<StoreContext, 'dialect'>,
  channel: string,
  payload: string,
): Promise<void> {
  if (context.dialect === 'postgres')
    await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

/**
 * Starting a run is one transaction: the thread (new or the user's own), the
 * prompt as a message, and the run `queued` with its start job. Nothing runs
 * here; a worker leases it. Undefined when the thread is not the user's.
 */
export function enqueueRun(
  context: StoreContext,
  input: EnqueueRun,
  signal?: AbortSignal,
): Promise<Enqueued | undefined> {
  const stored = writeTransaction(
    context,
    async (db) => {
      const time = now();
      const threadRow = await openThread(
        db,
        {
          id: input.threadId ?? context.newId(),
          existing: input.threadId !== undefined,
          userId: input.userId,
          title: input.title,
          messages: 1,
          agent: input.agent,
        },
        time,
        context.dialect,
      );
      if (threadRow === undefined) return undefined;
      const runId = context.newId();
      const message = {
        id: context.newId(),
        thread_id: threadRow.id,
        seq: Number(threadRow.message_seq),
        role: 'user',
        content: input.prompt,
        run_id: runId,
        created_at: time,
      };
      await db.insertInto('messages').values(message).execute();
      const remember = await storeDefinition(
        context,
        db,
        input.definitionHash,
        input.definitionSnapshot,
        time,
      );
      const run: RunRow = {
        id: runId,
        thread_id: threadRow.id,
        user_id: input.userId,
        agent: input.agent,
        status: 'queued',
        definition_hash: input.definitionHash,
        state: null,
        summary: '',
        model: input.model,
        usage: JSON.stringify(emptyUsage()),
        error_code: null,
        event_seq: 0,
        created_at: time,
        updated_at: time,
        finished_at: null,
        owner: null,
        lease_until: null,
        job: JSON.stringify(startJob(input.prompt, message.seq, input.record, input)),
        cancel_requested: 0,
      };
      await db.insertInto('runs').values(run).execute();
      await notify(db, context, QUEUE_CHANNEL, runId);
      const enqueued = {
        thread: toThread(threadRow),
        message: toMessage(message),
        run: toRun(run),
      };
      return { enqueued, remember };
    },
    signal,
  );
  // The definition is remembered as written only once the transaction has committed.
  return stored.then((result) => {
    result?.remember();
    return result?.enqueued;
  });
}

/**
 * Leases the oldest run that needs a worker: a queued one, or one whose
 * owner's lease ran out (its process died or hung). A takeover records the
 * dead owner's `executing` actions as `interrupted`: never re-run.
 */
export function leaseNextRun(
  context: StoreContext,
  owner: string,
  leaseMs: number,
  signal?: AbortSignal,
): Promise<LeasedRun | undefined> {
  return writeTransaction(
    context,
    async (db) => {
      const time = now();
      let query = db
        .selectFrom('runs')
        .select(['id', 'status', 'job'])
        .where((eb) =>
          eb.or([
            eb('status', '=', 'queued'),
            eb.and([
              eb('status', 'in', ['planning', 'executing']),
              eb.or([eb('lease_until', '<', time), eb('lease_until', 'is', null)]),
            ]),
          ]),
        )
        .orderBy('created_at')
        .limit(1);
      // Concurrent leasers on PostgreSQL skip each other's candidates instead of queueing.
      if (context.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const candidate = await query.executeTakeFirst();
      if (candidate === undefined) return undefined;
      const takenOver = candidate.status !== 'queued';
      const resuming = candidate.job !== null && candidate.job.includes('"kind":"resume"');
      const row = await db
        .updateTable('runs')
        .set({
          owner,
          lease_until: later(leaseMs),
          updated_at: time,
          ...(takenOver ? {} : { status: resuming ? 'executing' : 'planning' }),
        })
        .where('id', '=', candidate.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      let interrupted: Action[] = [];
      if (takenOver) {
        const rows = await db
          .updateTable('actions')
          .set({
            status: 'interrupted',
            error_code: 'interrupted',
            error_message: INTERRUPTED_MESSAGE,
            updated_at: time,
            finished_at: time,
          })
          .where('run_id', '=', candidate.id)
          .where('status', '=', 'executing')
          .returningAll()
          .execute();
        interrupted = rows.map(toAction);
      }
      return { ...toLeasedRun(row), takenOver, interrupted };
    },
    signal,
  );
}

/**
 * The heartbeat: extends this owner's leases in one statement. Runs missing
 * from the answer were lost (taken over after a stall) and must stop.
 */
export async function renewLeases(
  context: StoreContext,
  leases: readonly Lease[],
  leaseMs: number,
  signal?: AbortSignal,
): Promise<LeaseRenewal> {
  signal?.throwIfAborted();
  if (leases.length === 0) return { kept: [], cancelRequested: [] };
  // Owner tokens are unique per lease, so matching ids and tokens as sets matches the pairs.
  const rows = await context.db
    .updateTable('runs')
    .set({ lease_until: later(leaseMs) })
    .where(
      'owner',
      'in',
      leases.map((l) => l.owner),
    )
    .where(
      'id',
      'in',
      leases.map((l) => l.runId),
    )
    .where('status', 'in', ['planning', 'executing'])
    .returning(['id', 'cancel_requested'])
    .execute();
  return {
    kept: rows.map((r) => r.id),
    cancelRequested: rows.filter((r) => Number(r.cancel_requested) === 1).map((r) => r.id),
  };
}

/** Shutdown: this owner's leases end now, so another process takes the runs over at once. */
export async function expireLeases(
  context: StoreContext,
  leases: readonly Lease[],
  signal?: AbortSignal,
): Promise<void> {
  signal?.throwIfAborted();
  if (leases.length === 0) return;
  await context.db
    .updateTable('runs')
    .set({ lease_until: new Date(0).toISOString() })
    .where(
      'owner',
      'in',
      leases.map((l) => l.owner),
    )
    .where(
      'id',
      'in',
      leases.map((l) => l.runId),
    )
    .execute();
}

/**
 * Cancels a run for its user. A run no worker holds (queued, or waiting for
 * approval) ends here and its pending approvals close; a run being driven is
 * flagged, and its owner stops it at the next heartbeat.
 */
export function requestCancel(
  context: StoreContext,
  userId: string,
  runId: string,
  signal?: AbortSignal,
): Promise<Run | undefined> {
  return writeTransaction(
    context,
    async (db) => {
      const time = now();
      const idle = await db
        .updateTable('runs')
        .set(cancelledRun(time))
        .where('id', '=', runId)
        .where('user_id', '=', userId)
        .where('status', 'in', ['queued', 'awaiting_confirmation'])
        .returningAll()
        .executeTakeFirst();
      if (idle !== undefined) {
        await closeWaiting(db, runId, time);
        await notify(db, context, RUN_CHANNEL, runId);
        return toRun(idle);
      }
      const busy = await db
        .updateTable('runs')
        .set({ cancel_requested: 1, updated_at: time })
        .where('id', '=', runId)
        .where('user_id', '=', userId)
        .where('status', 'in', ['planning', 'executing'])
        .returningAll()
        .executeTakeFirst();
      if (busy !== undefined) return toRun(busy);
      // Already finished: cancelling changes nothing.
      const done = await db
        .selectFrom('runs')
        .selectAll()
        .where('id', '=', runId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return done && withSummary(db, toRun(done));
    },
    signal,
  );
}
