import type { Approval, ResumeDecision, RunJob } from '../records.js';
import { normaliseRecipient } from '../recipient.js';
import { toApproval } from '../rows.js';
import type { ApprovalRow } from '../schema/database.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';
import { notify, QUEUE_CHANNEL, RUN_CHANNEL } from './run-queue.js';
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
      const found = await db
        .selectFrom('approvals')
        .select(['run_id', 'status'])
        .where('id', '=', approvalId)
        .where('user_id', '=', resolution.userId)
        .executeTakeFirst();
      if (found === undefined) return { ok: false, reason: 'not_found' };
      // Lock the run first: two approvals of one batch resolved at once must not both see the other pending.
      if (context.dialect === 'postgres')
        await db
          .selectFrom('runs')
          .select('id')
          .where('id', '=', found.run_id)
          .forUpdate()
          .execute();
      const time = now();
      const rejected = resolution.decision === 'reject';
      // Approved, but not what the person was shown: refused (stale), never run; they are asked again.
      const stale = !rejected && resolution.matches === false;
      const row = await db
        .updateTable('approvals')
        .set({
          status: rejected ? 'rejected' : stale ? 'stale' : 'approved',
          decision: resolution.decision,
          feedback: resolution.feedback ?? null,
          resolved_at: time,
        })
        .where('id', '=', approvalId)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return { ok: false, reason: 'already_resolved' };
      const approval = toApproval(row);
      if (rejected) {
        await db
          .updateTable('actions')
          .set({
            status: 'rejected',
            error_code: 'rejected',
            error_message: resolution.feedback ?? null,
            updated_at: time,
            finished_at: time,
          })
          .where('id', '=', approval.actionId)
          .where('status', '=', 'awaiting_confirmation')
          .execute();
      }
      if (!rejected && !stale && (resolution.grants?.length ?? 0) > 0) {
        // The grant goes to the agent whose call asked: a subagent's, else the run's own.
        const earner = await db
          .selectFrom('runs')
          .innerJoin('users', 'users.id', 'runs.user_id')
          .select(['runs.agent', 'users.name'])
          .where('runs.id', '=', found.run_id)
          .executeTakeFirstOrThrow();
        for (const grant of resolution.grants ?? [])
          await db
            .insertInto('grants')
            .values({
              id: context.newId(),
              user_id: resolution.userId,
              agent: grant.agent ?? earner.agent,
              tool: grant.tool,
              recipient: normaliseRecipient(grant.recipient),
              created_at: time,
              set_by: earner.name,
            })
            .onConflict((c) => c.columns(['user_id', 'agent', 'tool', 'recipient']).doNothing())
            .execute();
      }
      const batch = (
        await db
          .selectFrom('approvals')
          .selectAll()
          .where('batch_id', '=', approval.batchId)
          .orderBy('id')
          .execute()
      ).map(toApproval);
      if (batch.some((a) => a.status === 'pending')) return { ok: true, approval, resumed: false };
      const job: RunJob = {
        kind: 'resume',
        decisions: Object.fromEntries(batch.map((a) => [a.callId, resumeDecision(a)])),
      };
      const resumed = await db
        .updateTable('runs')
        .set({ status: 'queued', job: JSON.stringify(job), updated_at: time })
        .where('id', '=', approval.runId)
        .where('status', '=', 'awaiting_confirmation')
        .executeTakeFirst();
      const queued = Number(resumed.numUpdatedRows) === 1;
      if (queued) {
        await notify(db, context, QUEUE_CHANNEL, approval.runId);
        await notify(db, context, RUN_CHANNEL, approval.runId);
      }
      return { ok: true, approval, resumed: queued };
    },
    signal,
  );
}

/** Said to the resumed run about an approval that did not match what its card showed. */
const STALE_REASON = 'the call changed after the person was shown it';

/** A decided approval as the resume reads it: an approval carries what it is bound to. */
function resumeDecision(approval: Approval): ResumeDecision {
  switch (approval.status) {
    case 'stale':
    case 'pending':
      // A batch resumes only when all are decided: an undecided one would be asked again too.
      return { kind: 'ask_again', reason: STALE_REASON };
    case 'rejected':
      return approval.feedback
        ? { kind: 'reject', feedback: approval.feedback }
        : { kind: 'reject' };
    case 'approved':
      return {
        kind: 'approve',
        binding: {
          tool: approval.tool,
          inputHash: approval.inputHash,
          definitionHash: approval.definitionHash,
          // An approval stored before the class was bound binds to none: it is asked again.
          toolClass: approval.toolClass ?? '',
        },
      };
    default:
      return approval.status satisfies never;
  }
}
