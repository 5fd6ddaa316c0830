import type { Action, ActionStatus } from '../records.js';
import { toAction } from '../rows.js';
import { listOf, now, type StoreContext } from '../store-context.js';
import type { ActionTransition, NewAction, Transition } from '../types.js';

const FINISHED: readonly ActionStatus[] = ['completed', 'failed', 'rejected'];

export async function createAction(
  context: StoreContext,
  input: NewAction,
  signal?: AbortSignal,
): Promise<Action> {
  signal?.throwIfAborted();
  const time = now();
  // (run_id, call_id) is unique: a second resumer creating the same call gets the stored action back.
  await context.db
    .insertInto('actions')
    .values({
      id: context.newId(),
      run_id: input.runId,
      call_id: input.callId,
      tool: input.tool,
      args_json: JSON.stringify(input.args),
      input_hash: input.inputHash,
      status: input.status,
      requires_approval: input.requiresApproval ? 1 : 0,
      output_json: null,
      error_code: null,
      error_message: null,
      created_at: time,
      updated_at: time,
      finished_at: FINISHED.includes(input.status) ? time : null,
    })
    .onConflict((conflict) =>
      input.status === 'awaiting_confirmation'
        ? // Asking again about a call still waiting: its action shows the call as it is now.
          conflict
            .columns(['run_id', 'call_id'])
            .doUpdateSet({
              tool: input.tool,
              args_json: JSON.stringify(input.args),
              input_hash: input.inputHash,
              updated_at: time,
            })
            .where('actions.status', '=', 'awaiting_confirmation')
        : conflict.columns(['run_id', 'call_id']).doNothing(),
    )
    .execute();
  const row = await context.db
    .selectFrom('actions')
    .selectAll()
    .where('run_id', '=', input.runId)
    .where('call_id', '=', input.callId)
    .executeTakeFirstOrThrow();
  return toAction(row);
}

export async function getAction(
  context: StoreContext,
  actionId: string,
  signal?: AbortSignal,
): Promise<Action | undefined> {
  const row = await context.db
    .selectFrom('actions')
    .selectAll()
    .where('id', '=', actionId)
    .executeTakeFirst({ signal });
  return row && toAction(row);
}

export async function listActions(
  context: StoreContext,
  runId: string,
  signal?: AbortSignal,
): Promise<Action[]> {
  const rows = await context.db
    .selectFrom('actions')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('id')
    .execute({ signal });
  return rows.map(toAction);
}

export async function transitionAction(
  context: StoreContext,
  actionId: string,
  transition: ActionTransition,
  signal?: AbortSignal,
): Promise<Transition<Action, ActionStatus>> {
  signal?.throwIfAborted();
  const time = now();
  // One UPDATE guarded by the current status: the database lets exactly one racer match.
  const row = await context.db
    .updateTable('actions')
    .set({
      status: transition.to,
      updated_at: time,
      ...(FINISHED.includes(transition.to) ? { finished_at: time } : {}),
      ...(transition.output !== undefined
        ? { output_json: JSON.stringify(transition.output) }
        : {}),
      ...(transition.errorCode !== undefined ? { error_code: transition.errorCode } : {}),
      ...(transition.errorMessage !== undefined ? { error_message: transition.errorMessage } : {}),
    })
    .where('id', '=', actionId)
    .where('status', 'in', listOf(transition.from))
    .$if(transition.heldBy !== undefined, (update) =>
      update.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('runs')
            .select('runs.id')
            .whereRef('runs.id', '=', 'actions.run_id')
            .where('runs.owner', '=', transition.heldBy ?? ''),
        ),
      ),
    )
    .returningAll()
    .executeTakeFirst();
  if (row !== undefined) return { ok: true, value: toAction(row) };
  const current = await context.db
    .selectFrom('actions')
    .select('status')
    .where('id', '=', actionId)
    .executeTakeFirst();
  if (current === undefined) return { ok: false, reason: 'not_found' };
  const status = current.status as ActionStatus;
  return transition.heldBy !== undefined && listOf(transition.from).includes(status)
    ? { ok: false, reason: 'not_held' }
    : { ok: false, reason: 'status_mismatch', status };
}
