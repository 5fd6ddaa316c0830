import type { Approval } from '../records.js';
import { toApproval } from '../rows.js';
import type { ApprovalRow } from '../schema/database.js';
import { now, type StoreContext } from '../store-context.js';
import type { ApprovalFilter, NewApproval, Resolution, ResolveResult } from '../types.js';

export async function createApprovals(
  context: StoreContext,
  items: readonly NewApproval[],
  signal?: AbortSignal,
): Promise<Approval[]> {
  signal?.throwIfAborted();
  if (items.length === 0) return [];
  const batchId = context.newId();
  const time = now();
  const rows: ApprovalRow[] = items.map((item) => ({
    id: context.newId(),
    run_id: item.runId,
    action_id: item.actionId,
    call_id: item.callId,
    tool: item.tool,
    input_hash: item.inputHash,
    definition_hash: item.definitionHash,
    user_id: item.userId,
    batch_id: batchId,
    status: 'pending',
    decision: null,
    feedback: null,
    created_at: time,
    resolved_at: null,
  }));
  // One multi-row INSERT: the batch is stored whole or not at all.
  await context.db.insertInto('approvals').values(rows).execute();
  return rows.map(toApproval);
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

export async function resolveApproval(
  context: StoreContext,
  resolution: Resolution,
  signal?: AbortSignal,
): Promise<ResolveResult> {
  signal?.throwIfAborted();
  // Compare-and-set on 'pending' in one UPDATE: of two racing resolves exactly one matches.
  const row = await context.db
    .updateTable('approvals')
    .set({
      status: resolution.decision === 'reject' ? 'rejected' : 'approved',
      decision: resolution.decision,
      feedback: resolution.feedback ?? null,
      resolved_at: now(),
    })
    .where('id', '=', resolution.approvalId)
    .where('user_id', '=', resolution.userId)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (row !== undefined) return { ok: true, approval: toApproval(row) };
  const existing = await getApproval(context, resolution.userId, resolution.approvalId);
  return { ok: false, reason: existing === undefined ? 'not_found' : 'already_resolved' };
}
