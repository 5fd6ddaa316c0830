import { CadreError } from '../../errors/cadre-error.js';
import { storeUnavailableIn } from '../../errors/store-error.js';
import { closeUnrunActions } from './close-unrun.js';
import { runOf, type DriveHooks, type DriveResult, type DriveStart } from './drive-types.js';
import type { RunWriter } from './run-writer.js';
import type { ServerContext } from './server-context.js';
import { stepRun } from './step-run.js';

/**
 * Drives a run one step (see stepRun); a step that fails outside the loop
 * ends the run failed, unless the store is away (the run is handed back to
 * go on from its checkpoint) or this process no longer holds it.
 */
export async function driveRun(
  ctx: ServerContext,
  start: DriveStart,
  writer: RunWriter,
  hooks: DriveHooks,
): Promise<DriveResult> {
  const run = runOf(start);
  try {
    return await stepRun(ctx, start, writer, hooks);
  } catch (error) {
    if (hooks.abandoned()) return { kind: 'elsewhere' };
    // The store was away: the worker hands the run back, to go on from its checkpoint, not fail.
    if (storeUnavailableIn(error)) throw error;
    // A run that cannot even start (no model configured, a bad stored state) ends failed
    // instead of being taken over and failing again forever.
    if (writer.stored()) await closeUnrunActions(ctx, run).catch(() => undefined);
    const summary = `The run could not go on: ${error instanceof Error ? error.message : String(error)}`;
    const finished = await writer
      .finish({
        status: 'failed',
        summary,
        // The reason is the run's reply in its thread, as a failure inside the loop is: the
        // page shows it where the person is looking, not only on the run's own page.
        message: summary,
        usage: run.usage,
        // A Cadre error keeps its code (no model configured is `config_error`, which `/v1`
        // answers 503 and the page shows as a setup problem), anything else is internal.
        errorCode: error instanceof CadreError ? error.code : 'internal',
      })
      .catch(() => undefined);
    if (!finished) throw error;
    return { kind: 'settled', run: finished, actionsCreated: true };
  }
}
