import { emptyUsage } from '../../model/types.js';
import type { Run, RunStatus } from '../records.js';
import { toRun } from '../rows.js';
import type { RunRow } from '../schema/database.js';
import { listOf, now, type StoreContext } from '../store-context.js';
import type { NewRun, RunPatch, Transition } from '../types.js';

const FINISHED: readonly RunStatus[] = ['completed', 'failed'];

export async function createRun(
  context: StoreContext,
  input: NewRun,
  signal?: AbortSignal,
): Promise<Run> {
  signal?.throwIfAborted();
  const time = now();
  const row: RunRow = {
    id: input.id ?? context.newId(),
    thread_id: input.threadId,
    user_id: input.userId,
    agent: input.agent,
    status: input.status ?? 'queued',
    definition_snapshot: JSON.stringify(input.definitionSnapshot ?? null),
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
  };
  await context.db.insertInto('runs').values(row).execute();
  return toRun(row);
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
  return row && toRun(row);
}

export async function updateRun(
  context: StoreContext,
  runId: string,
  patch: RunPatch,
  expectedStatus: RunStatus | readonly RunStatus[] | undefined,
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
    })
    .where('id', '=', runId);
  // The status guard sits in the UPDATE itself, so the check and the write are one atomic step.
  if (expectedStatus !== undefined) query = query.where('status', 'in', listOf(expectedStatus));
  const row = await query.returningAll().executeTakeFirst();
  if (row !== undefined) return { ok: true, value: toRun(row) };
  const current = await context.db
    .selectFrom('runs')
    .select('status')
    .where('id', '=', runId)
    .executeTakeFirst();
  return current === undefined
    ? { ok: false, reason: 'not_found' }
    : { ok: false, reason: 'status_mismatch', status: current.status as RunStatus };
}
