import type { Kysely } from 'kysely';
import type { Approval, ResumeDecision, RunJob } from '../records.js';
import { normaliseRecipient } from '../recipient.js';
import { toApproval } from '../rows.js';
import type { Database } from '../schema/database.js';
import type { StoreContext } from '../store-context.js';
import { notify, QUEUE_CHANNEL, RUN_CHANNEL } from './run-queue.js';
import type { Resolution } from '../types.js';

type Db = Kysely<Database>;

/** The person's verdict on one approval, as the steps of a resolution read it. */
export interface Verdict {
  readonly rejected: boolean;
  readonly stale: boolean;
}

export function verdictOf(resolution: Resolution): Verdict {
  const rejected = resolution.decision === 'reject';
  // Approved, but not what the person was shown: refused (stale), never run; they are asked again.
  const stale = !rejected && resolution.matches === false;
  return { rejected, stale };
}

/** The approval's run, if the approval exists and belongs to the resolving user. */
export async function findApprovalRun(
  db: Db,
  approvalId: string,
  userId: string,
): Promise<string | undefined> {
  const found = await db
    .selectFrom('approvals')
    .select(['run_id', 'status'])
    .where('id', '=', approvalId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return found?.run_id;
}

/** Lock the run first: two approvals of one batch resolved at once must not both see the other pending. */
export async function lockRun(db: Db, context: StoreContext, runId: string): Promise<void> {
  if (context.dialect === 'postgres')
    await db.selectFrom('runs').select('id').where('id', '=', runId).forUpdate().execute();
}

/** Compare-and-set on `pending`: undefined when another decider won. */
export async function decideApproval(
  db: Db,
  approvalId: string,
  resolution: Resolution,
  verdict: Verdict,
  time: string,
): Promise<Approval | undefined> {
  const { rejected, stale } = verdict;
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
  return row && toApproval(row);
}

/** A rejected approval's action ends rejected, carrying the person's feedback. */
export async function rejectAction(
  db: Db,
  approval: Approval,
  resolution: Resolution,
  time: string,
): Promise<void> {
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

/** Stores the standing grants the person gave along with an approval. */
export async function storeGrants(
  db: Db,
  context: StoreContext,
  runId: string,
  resolution: Resolution,
  time: string,
): Promise<void> {
  // The grant goes to the agent whose call asked: a subagent's, else the run's own.
  const earner = await db
    .selectFrom('runs')
    .innerJoin('users', 'users.id', 'runs.user_id')
    .select(['runs.agent', 'users.name'])
    .where('runs.id', '=', runId)
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

/** Every approval of the batch, in id order. */
export async function readBatch(db: Db, batchId: string): Promise<Approval[]> {
  return (
    await db
      .selectFrom('approvals')
      .selectAll()
      .where('batch_id', '=', batchId)
      .orderBy('id')
      .execute()
  ).map(toApproval);
}

/**
 * Moves a fully decided batch's run from `awaiting_confirmation` to `queued` with the decisions as
 * its resume job, and wakes the workers and watchers. False when the run was not waiting.
 */
export async function queueResume(
  db: Db,
  context: StoreContext,
  runId: string,
  batch: readonly Approval[],
  time: string,
): Promise<boolean> {
  const job: RunJob = {
    kind: 'resume',
    decisions: Object.fromEntries(batch.map((a) => [a.callId, resumeDecision(a)])),
  };
  const resumed = await db
    .updateTable('runs')
    .set({ status: 'queued', job: JSON.stringify(job), updated_at: time })
    .where('id', '=', runId)
    .where('status', '=', 'awaiting_confirmation')
    .executeTakeFirst();
  const queued = Number(resumed.numUpdatedRows) === 1;
  if (queued) {
    await notify(db, context, QUEUE_CHANNEL, runId);
    await notify(db, context, RUN_CHANNEL, runId);
  }
  return queued;
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
