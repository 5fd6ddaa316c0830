import type { ServerContext } from '../../core/server-context.js';
import type { WorkerState } from '../worker-state.js';

/**
 * Ends the leases of runs handed back while the store was away (see
 * WorkerState.handBack), so another owner takes them over now; kept for
 * the next try while the store is still away.
 */
export async function handBackLeases(ctx: ServerContext, state: WorkerState): Promise<void> {
  if (state.handBack.length === 0) return;
  const leases = state.handBack.splice(0);
  await ctx.store.queue.expireLeases(leases).catch((error: unknown) => {
    state.handBack.push(...leases);
    throw error;
  });
}
