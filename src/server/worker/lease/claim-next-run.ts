import type { LeasedRun } from '../../../store/types.js';
import type { ServerContext } from '../../core/server-context.js';
import type { WorkerState } from '../worker-state.js';
import { handBackLeases } from './hand-back-leases.js';
import { claimOwner } from './owner-token.js';

/** One look at the queue: a run now leased to `owner`, none waiting, or the store unreachable. */
export type ClaimAttempt =
  | { kind: 'claimed'; claim: LeasedRun; owner: string }
  | { kind: 'empty' }
  | { kind: 'unreachable'; error: unknown };

/**
 * Claims the oldest run needing a worker: a queued one, or one whose
 * owner's lease ran out (the store marks it taken over). Runs handed back
 * earlier are released first, so this claim may be one of them.
 */
export async function claimNextRun(
  ctx: ServerContext,
  state: WorkerState,
  leaseMs: number,
): Promise<ClaimAttempt> {
  const owner = claimOwner(state.owner);
  try {
    await handBackLeases(ctx, state);
    const claim = await ctx.store.queue.leaseNext(owner, leaseMs);
    return claim ? { kind: 'claimed', claim, owner } : { kind: 'empty' };
  } catch (error) {
    return { kind: 'unreachable', error };
  }
}
