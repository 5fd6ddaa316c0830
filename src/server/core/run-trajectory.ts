import { join } from 'node:path';
import { NotFoundError } from '../../errors/cadre-error.js';
import { loadTrajectory } from '../../trajectory/load-trajectory.js';
import type { Trajectory } from '../../trajectory/types.js';
import type { Run } from '../../store/types.js';
import type { ServerContext } from './server-context.js';

/** Where a recorded run's trajectory is saved (`step-run.ts`): outside every workspace. */
export const trajectoryFile = (ctx: Pick<ServerContext, 'trajectories'>, runId: string): string =>
  join(ctx.trajectories, `${runId}.json`);

/**
 * The user's run and its recording; undefined when the run is not theirs
 * (the HTTP layer answers 404, as for a missing one). A run of theirs that
 * was not recorded is a NotFoundError that says so.
 */
export async function runTrajectory(
  ctx: Pick<ServerContext, 'store' | 'trajectories'>,
  userId: string,
  runId: string,
  signal?: AbortSignal,
): Promise<{ run: Run; trajectory: Trajectory } | undefined> {
  const run = await ctx.store.runs.get(runId, userId, { signal });
  if (!run) return undefined;
  // The id names a stored run, so it is the store's own and safe as a file name.
  const trajectory = await loadTrajectory(trajectoryFile(ctx, run.id), signal).catch(
    (error: unknown) => {
      if (signal?.aborted) throw error;
      return undefined;
    },
  );
  if (!trajectory || trajectory.run_id !== run.id)
    throw new NotFoundError(
      run.status === 'completed' || run.status === 'failed' || run.status === 'cancelled'
        ? 'This run was not recorded. Runs started with "record": true keep a trajectory, those that wait for approval too.'
        : 'This run has no trajectory yet: it is recorded when it finishes.',
    );
  return { run, trajectory };
}
