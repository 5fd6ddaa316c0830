import type { RunHooks, RunResponse } from '../run-service-types.js';
import type { LocalRun } from '../worker/worker-types.js';
import { attachRun, type Attacher } from './attach-run.js';
import type { ServerContext } from './server-context.js';
import { runResponse } from './views.js';

/**
 * Follows a run this process drives and its starter hears of in memory (its
 * events reach the starter's `onEvent` as they happen): its result, with no
 * reads. A run handed over meanwhile (shutdown, lost lease) is followed on
 * through the store from the last event it holds: the next owner numbers
 * its events from there.
 */
export async function followLocal(
  ctx: ServerContext,
  attach: Attacher,
  userId: string,
  local: LocalRun,
  hooks: RunHooks,
): Promise<RunResponse> {
  const result = await untilDetached(local, hooks.signal);
  if (result.kind === 'settled')
    return runResponse(
      ctx,
      userId,
      result.run,
      // Nothing was asked of the store, so there is nothing to read back.
      result.actionsCreated ? undefined : { actions: [], approvals: [] },
    );
  if (result.kind === 'failed') throw result.error;
  const followed = await attachRun(ctx, userId, local.runId, {
    ...attach,
    after: local.storedSeq(),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    ...(hooks.onEvent ? { onEvent: hooks.onEvent } : {}),
  });
  return runResponse(ctx, userId, followed);
}

/** The run's result, or the detaching request's abort (the run goes on). */
function untilDetached(
  local: LocalRun,
  signal: AbortSignal | undefined,
): Promise<Awaited<LocalRun['result']>> {
  if (!signal) return local.result;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const detach = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', detach, { once: true });
    void local.result.then((result) => {
      signal.removeEventListener('abort', detach);
      resolve(result);
    });
  });
}
