import type { LeasedRun } from '../../../store/types.js';
import type { ServerContext } from '../../core/server-context.js';
import type { WorkerState } from '../worker-state.js';
import { handBackLeases } from './hand-back-leases.js';
import { leaseOwner } from './owner-token.js';

/** One look at the queue: a run now leased to `owner`, none waiting, or the store unreachable. */
export type LeaseAttempt =
  | { kind: 'leased'; leased: LeasedRun; owner: string }
  | { kind: 'empty' }
  | { kind: 'unreachable'; error: unknown };

/**
 * Leases the oldest run needing a worker: a queued one, or one whose
 * owner's lease ran out (the store marks it taken over). Runs handed back
 * earlier are released first, so this lease may be one of them.
 */
export async function leaseNextRun(
  ctx: ServerContext,
  state: WorkerState,
  leaseMs: number,
): Promise<LeaseAttempt> {
  const owner = leaseOwner(state.owner);
  try {
    await handBackLeases(ctx, state);
    const leased = await ctx.store.queue.leaseNext(owner, leaseMs);
    return leased ? { kind: 'leased', leased, owner } : { kind: 'empty' };
  } catch (error) {
    return { kind: 'unreachable', error };
  }
}
