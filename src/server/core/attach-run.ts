import { NotFoundError } from '../../errors/cadre-error.js';
import type { CadreEvent } from '../../events/types.js';
import type { Run, RunStatus } from '../../store/types.js';
import type { RunChanges } from '../worker/run-changes.js';
import type { RunWorker } from '../worker/worker-types.js';
import type { ServerContext } from './server-context.js';

/** States in which nothing happens until a person acts (or ever again). */
const SETTLED: readonly RunStatus[] = ['completed', 'failed', 'cancelled', 'awaiting_confirmation'];

export const isSettled = (run: Run): boolean => SETTLED.includes(run.status);

/** Events read from the log at a time while tailing. */
const PAGE = 1000;

export interface AttachOptions {
  changes: RunChanges;
  /** Between looks when no notification arrives (other processes on SQLite, a lost NOTIFY). */
  pollMs: number;
  /** Detaching: the wait ends, the run goes on. */
  signal?: AbortSignal;
}

/** What a request needs to start or resume a run and then attach to it. */
export type Attacher = Omit<AttachOptions, 'signal'> & {
  /** Tells this process's worker a run was queued. */
  wake: () => void;
  /** This process's worker, which drives runs started here without the queue. */
  worker?: Pick<RunWorker, 'adopt' | 'hasRoom'>;
  /** Ids for runs and threads started here (time-ordered, as the store's). */
  newId: () => string;
};

/**
 * Follows a run from the outside: it may be driven by this process or any
 * other. With `onEvent`, every stored event after `after` is delivered in
 * order (a tail of the run's log); it returns once the run is settled
 * (finished, or waiting for a person) and its log is read to the end.
 * Aborting the signal detaches and never touches the run.
 */
export async function attachRun(
  ctx: ServerContext,
  userId: string,
  runId: string,
  options: AttachOptions & { after?: number; onEvent?: (event: CadreEvent) => void },
): Promise<Run> {
  const { signal } = options;
  let after = options.after ?? 0;
  for (;;) {
    signal?.throwIfAborted();
    // Listen before looking, so a change between the look and the wait is not missed.
    const changed = options.changes.next(runId, options.pollMs, signal);
    // Status first, then the log: a run seen settled has all its events stored already.
    const run = await ctx.store.runs.get(runId, userId, { signal });
    if (!run) throw new NotFoundError('No such run.');
    if (options.onEvent) {
      for (;;) {
        const events = await ctx.store.events.read(runId, { after, limit: PAGE }, { signal });
        for (const stored of events) options.onEvent({ ...stored.event, seq: stored.seq });
        after = events.at(-1)?.seq ?? after;
        if (events.length < PAGE) break;
      }
    }
    if (isSettled(run)) return run;
    await changed;
  }
}
