import { closeUnrunActions } from './close-unrun.js';
import { runOf, type DriveHooks, type DriveResult, type DriveStart } from './drive-types.js';
import { executeStep } from './execute-step.js';
import { firstStep, nextStep } from './next-step.js';
import { pinnedDefinition } from './pick-definition.js';
import type { RunWriter } from './run-writer.js';
import type { ServerContext } from './server-context.js';
import { stepOptions } from './step-options.js';
import { reportTakeover } from './report-takeover.js';
import { keepRecording, readPausedRecording } from './paused-recording.js';
import { runWorkspace } from './run-workspace.js';

/**
 * Drives a run one step, from whatever it is at: a new run, a start job, a
 * resume job with the people's decisions, or (taken over from a dead owner)
 * its last checkpoint. Everything is recorded through `writer`, only
 * while this worker still owns the run; the step ends with the run paused
 * for approval or finished.
 */
export async function stepRun(
  ctx: ServerContext,
  start: DriveStart,
  writer: RunWriter,
  hooks: DriveHooks,
): Promise<DriveResult> {
  const run = runOf(start);
  const definition = start.kind === 'new' ? start.definition : await pinnedDefinition(ctx, run);
  // Derived from the stored run, so a resumed or taken-over run works in the same folder anywhere.
  const workspace = await runWorkspace(ctx.workspaces, run);
  const history = start.kind === 'new' ? start.historySeqs : [];
  const setup = stepOptions(ctx, run, writer, hooks, workspace, history);
  if (start.kind === 'leased' && start.leased.takenOver)
    await reportTakeover(ctx, writer, start.leased);
  const step = start.kind === 'new' ? firstStep(start) : await nextStep(ctx, run);
  if (step.kind === 'start' && step.historySeqs) setup.coverHistory(step.historySeqs);
  // A recorded run that paused kept its recording so far beside where the trajectory goes.
  const paused = step.kind === 'resume' ? await readPausedRecording(ctx, run.id) : undefined;
  const { outcome, recording } = await executeStep(definition, step, setup.options, paused);
  if (hooks.abandoned()) return { kind: 'elsewhere' };
  if (recording) await keepRecording(ctx, run.id, recording, outcome);
  // A run failing before it made the calls it waited on (its model unreachable on resume) leaves
  // none looking as if a person still had to decide; closed first, so its end shows them closed.
  if (
    outcome.status === 'finished' &&
    outcome.result.terminate_reason !== 'GOAL' &&
    writer.stored()
  )
    await closeUnrunActions(ctx, run);
  const settled =
    outcome.status === 'paused'
      ? await setup.journal.pause(outcome.state, outcome.pending)
      : await setup.journal.finish(outcome.result);
  if (!settled) return { kind: 'elsewhere' };
  return { kind: 'settled', run: settled, actionsCreated: setup.actionsCreated() };
}
