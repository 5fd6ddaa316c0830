import type { Run } from '../../store/types.js';
import { auditCutOff } from './audit-log.js';
import type { ServerContext } from './server-context.js';

/**
 * A run that failed outside its loop (a model that cannot be reached on
 * resume) never runs the calls it was waiting on, approved or not. Left
 * `awaiting_confirmation`, they would look as if a person still had to
 * decide them; they end `failed` (`not_run`), each with its audit entry.
 */
export async function closeUnrunActions(
  ctx: Pick<ServerContext, 'store'>,
  run: Run,
  signal?: AbortSignal,
): Promise<void> {
  const actions = await ctx.store.actions.list(run.id, { signal });
  for (const action of actions) {
    if (action.status !== 'awaiting_confirmation' && action.status !== 'planned') continue;
    const moved = await ctx.store.actions.transition(
      action.id,
      {
        from: action.status,
        to: 'failed',
        errorCode: 'not_run',
        errorMessage: 'The run failed before this call ran.',
      },
      { signal },
    );
    if (!moved.ok) continue;
    await auditCutOff(
      ctx.store,
      run,
      action,
      { errorCode: 'not_run', approvalReason: 'the run failed before the call ran' },
      signal,
    );
  }
}
