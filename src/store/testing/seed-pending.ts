import type { Approval } from '../records.js';
import type { Store } from '../types.js';
import { approvalsFor, seedRun } from '../conformance/conformance-store.js';

/** Rows per approvals.createBatch call: one multi-row INSERT each, well under SQLite's variable limit. */
const BATCH = 500;

/**
 * `count` pending approvals for one user's run awaiting confirmation, made
 * through the store (an action each, approvals in batches), in id order.
 */
export async function seedPendingApprovals(
  store: Store,
  userName: string,
  count: number,
  signal?: AbortSignal,
): Promise<{ userId: string; threadId: string; approvals: Approval[] }> {
  const { user, thread, run } = await seedRun(store, userName, 'awaiting_confirmation');
  const approvals: Approval[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const actions = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++)
      actions.push(
        await store.actions.create(
          {
            runId: run.id,
            callId: `call_${i}`,
            tool: 'gmail_send',
            args: { to: `person${i}@example.com`, subject: 'Hi', body: 'Hello' },
            inputHash: String(i),
            status: 'awaiting_confirmation',
            requiresApproval: true,
          },
          { signal },
        ),
      );
    approvals.push(
      ...(await store.approvals.createBatch(approvalsFor(run, user.id, actions), { signal })),
    );
  }
  approvals.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { userId: user.id, threadId: thread.id, approvals };
}
