import type { Approval } from '../records.js';
import { toApproval } from '../rows.js';
import type { ApprovalRow } from '../schema/database.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';
import {
  decideApproval,
  findApprovalRun,
  lockRun,
  queueResume,
  readBatch,
  rejectAction,
  storeGrants,
  verdictOf,
} from './resolve-approval.js';
import type { ApprovalFilter, NewApproval, Resolution, ResolveResult } from '../types.js';

export async function createApprovals(
  context: StoreContext,
  items: readonly NewApproval[],
  signal?: AbortSignal,
): Promise<Approval[]> {
  signal?.throwIfAborted();
  if (items.length === 0) return [];
  const rows = approvalRows(context, items, now());
  // One multi-row INSERT: the batch is stored whole or not at all.
  await context.db.insertInto('approvals').values(rows).execute();
  return rows.map(toApproval);
}

/** Pending approval rows for one turn's calls: one batch, sharing a new batch id. */
export function approvalRows(
  context: StoreContext,
  items: readonly NewApproval[],
  time: string,
): ApprovalRow[] {
  const batchId = context.newId();
  return items.map((item) => ({
    id: context.newId(),
    run_id: item.runId,
    action_id: item.actionId,
    call_id: item.callId,
    tool: item.tool,
    input_hash: item.inputHash,
    definition_hash: item.definitionHash,
    tool_class: item.toolClass ?? null,
    user_id: item.userId,
    batch_id: batchId,
    status: 'pending',
    decision: null,
    feedback: null,
    created_at: time,
    resolved_at: null,
  }));
}

export async function getApproval(
  context: StoreContext,
  userId: string,
  approvalId: string,
  signal?: AbortSignal,
): Promise<Approval | undefined> {
  const row = await context.db
    .selectFrom('approvals')
    .selectAll()
    .where('id', '=', approvalId)
    .where('user_id', '=', userId)
    .executeTakeFirst({ signal });
  return row && toApproval(row);
}

export async function listApprovals(
  context: StoreContext,
  userId: string,
  filter: ApprovalFilter,
  signal?: AbortSignal,
): Promise<Approval[]> {
  let query = context.db.selectFrom('approvals').selectAll().where('user_id', '=', userId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.runId !== undefined) query = query.where('run_id', '=', filter.runId);
  if (filter.batchId !== undefined) query = query.where('batch_id', '=', filter.batchId);
  if (filter.threadId !== undefined) {
    const threadId = filter.threadId;
    query = query.where('run_id', 'in', (eb) =>
      eb.selectFrom('runs').select('runs.id').where('runs.thread_id', '=', threadId),
    );
  }
  const rows = await query.orderBy('id').execute({ signal });
  return rows.map(toApproval);
}

/**
 * Resolving is one transaction, so two deciders cannot both win: the approval's compare-and-set
 * on `pending`, the action's decision, any grants, and, when the batch is
 * fully decided, the run's move from `awaiting_confirmation` to `queued` with
 * the decisions as its resume job. No state exists in which an approval is
 * decided and its run cannot be resumed.
 */
export function resolveApproval(
  context: StoreContext,
  approvalId: string,
  resolution: Resolution,
  signal?: AbortSignal,
): Promise<ResolveResult> {
  return writeTransaction(
    context,
    async (db) => {
      const runId = await findApprovalRun(db, approvalId, resolution.userId);
      if (runId === undefined) return { ok: false, reason: 'not_found' };
      await lockRun(db, context, runId);
      const time = now();
      const verdict = verdictOf(resolution);
      const approval = await decideApproval(db, approvalId, resolution, verdict, time);
      if (approval === undefined) return { ok: false, reason: 'already_resolved' };
      if (verdict.rejected) await rejectAction(db, approval, resolution, time);
      if (!verdict.rejected && !verdict.stale && (resolution.grants?.length ?? 0) > 0)
        await storeGrants(db, context, runId, resolution, time);
      const batch = await readBatch(db, approval.batchId);
      if (batch.some((a) => a.status === 'pending')) return { ok: true, approval, resumed: false };
      const queued = await queueResume(db, context, approval.runId, batch, time);
      return { ok: true, approval, resumed: queued };
    },
    signal,
  );
}
