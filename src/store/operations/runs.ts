import { emptyUsage } from '../../model/types.js';
import type { Run, RunStatus } from '../records.js';
import { toRun } from '../rows.js';
import type { RunRow } from '../schema/database.js';
import { listOf, now, writeTransaction, type StoreContext } from '../store-context.js';
import { storeDefinition } from './definitions.js';
import { notify, RUN_CHANNEL } from './run-queue.js';
import { withSummary } from './run-reply.js';
import type { NewRun, RunGuard, RunPatch, Transition } from '../types.js';

const FINISHED: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

export async function createRun(
  context: StoreContext,
  input: NewRun,
  signal?: AbortSignal,
): Promise<Run> {
  const time = now();
  const row = newRunRow(context, input, time);
  const remember = await writeTransaction(
    context,
    async (db) => {
      const stored = await storeDefinition(
        context,
        db,
        input.definitionHash,
        input.definitionSnapshot,
        time,
      );
      await db.insertInto('runs').values(row).execute();
      return stored;
    },
    signal,
  );
  remember();
  return toRun(row);
}

function newRunRow(context: StoreContext, input: NewRun, time: string): RunRow {
  return {
    id: input.id ?? context.newId(),
    thread_id: input.threadId,
    user_id: input.userId,
    agent: input.agent,
    status: input.status ?? 'queued',
    definition_hash: input.definitionHash,
    state: input.state ? JSON.stringify(input.state) : null,
    summary: '',
    model: input.model,
    usage: JSON.stringify(emptyUsage()),
    error_code: null,
    event_seq: 0,
    created_at: time,
    updated_at: time,
    finished_at: FINISHED.includes(input.status ?? 'queued') ? time : null,
    owner: null,
    lease_until: null,
    job: input.job ? JSON.stringify(input.job) : null,
    cancel_requested: 0,
  };
}

export async function getRun(
  context: StoreContext,
  userId: string,
  runId: string,
  signal?: AbortSignal,
): Promise<Run | undefined> {
  const row = await context.db
    .selectFrom('runs')
    .selectAll()
    .where('id', '=', runId)
    .where('user_id', '=', userId)
    .executeTakeFirst({ signal });
  return row && withSummary(context.db, toRun(row), signal);
}

export async function updateRun(
  context: StoreContext,
  runId: string,
  patch: RunPatch,
  guard: RunGuard,
  signal?: AbortSignal,
): Promise<Transition<Run, RunStatus>> {
  signal?.throwIfAborted();
  const time = now();
  let query = context.db
    .updateTable('runs')
    .set({
      updated_at: time,
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.status !== undefined && FINISHED.includes(patch.status)
        ? { finished_at: time }
        : {}),
      ...(patch.state !== undefined
        ? { state: patch.state === null ? null : JSON.stringify(patch.state) }
        : {}),
      ...(patch.summary !== undefined ? { summary: patch.summary } : {}),
      ...(patch.model !== undefined ? { model: patch.model } : {}),
      ...(patch.usage !== undefined ? { usage: JSON.stringify(patch.usage) } : {}),
      ...(patch.errorCode !== undefined ? { error_code: patch.errorCode } : {}),
      ...(patch.job !== undefined
        ? { job: patch.job === null ? null : JSON.stringify(patch.job) }
        : {}),
      // A run that finishes or pauses has no owner: nothing is left to drive.
      ...(patch.release ? { owner: null, lease_until: null } : {}),
    })
    .where('id', '=', runId);
  // The guards sit in the UPDATE itself, so the check and the write are one atomic step.
  if (guard.expectedStatus !== undefined)
    query = query.where('status', 'in', listOf(guard.expectedStatus));
  // A worker writes only while it still owns the run: a process never rewrites another's run.
  if (guard.owner !== undefined) query = query.where('owner', '=', guard.owner);
  const row = await query.returningAll().executeTakeFirst();
  if (row !== undefined) {
    // Attached readers in other processes learn of the new status without polling.
    if (patch.status !== undefined) await notify(context.db, context, RUN_CHANNEL, runId);
    return { ok: true, value: toRun(row) };
  }
  const current = await context.db
    .selectFrom('runs')
    .select('status')
    .where('id', '=', runId)
    .executeTakeFirst();
  return current === undefined
    ? { ok: false, reason: 'not_found' }
    : { ok: false, reason: 'status_mismatch', status: current.status as RunStatus };
}
