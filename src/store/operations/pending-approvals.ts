import { toApproval } from '../rows.js';
import { parseStoredArgs } from '../stored-json.js';
import type { StoreContext } from '../store-context.js';
import type { PendingApprovalPage, PendingPageRequest } from '../types.js';

/**
 * One page of a user's pending approvals in id order, with each run's thread
 * and each call's arguments joined in: one statement per page, walking the
 * (user_id, status, id) index from the cursor, however many are pending.
 * One row more than asked tells whether another page follows.
 */
export async function listPendingApprovals(
  context: StoreContext,
  userId: string,
  page: PendingPageRequest,
  signal?: AbortSignal,
): Promise<PendingApprovalPage> {
  signal?.throwIfAborted();
  const rows = await pendingPageQuery(context, userId, page).execute({ signal });
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    approvals: shown.map(({ thread_id, args_json, ...row }) => ({
      approval: toApproval(row),
      threadId: thread_id,
      ...(args_json !== null ? { args: parseStoredArgs(args_json) } : {}),
    })),
    ...(rows.length > page.limit && last ? { next: last.id } : {}),
  };
}

/** The page's statement, one row over the limit (its query plan is tested). */
export function pendingPageQuery(
  context: Pick<StoreContext, 'db'>,
  userId: string,
  page: PendingPageRequest,
) {
  let query = context.db
    .selectFrom('approvals')
    .innerJoin('runs', 'runs.id', 'approvals.run_id')
    .leftJoin('actions', 'actions.id', 'approvals.action_id')
    .selectAll('approvals')
    .select(['runs.thread_id', 'actions.args_json'])
    .where('approvals.user_id', '=', userId)
    .where('approvals.status', '=', 'pending');
  if (page.after !== undefined) query = query.where('approvals.id', '>', page.after);
  return query.orderBy('approvals.id').limit(page.limit + 1);
}
