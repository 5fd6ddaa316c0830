import { closeUnrunActions } from './close-unrun.js';
import { runOf, type DriveHooks, type DriveResult, type DriveStart } from './drive-types.js';
import { executeStep } from './execute-step.js';
import { firstStep, nextStep } from './next-step.js';
import { pinnedDefinition } from './pick-definition.js';
import type { RunWriter } from './run-writer.js';
import type { ServerContext } from './server-context.js';
import { stepOptions } from './step-options.js';
import { reportTakeover } from './report-takeover.js';
import { dropPausedRecording, keepRecording, readPausedRecording } from './paused-recording.js';
import { runWorkspace } from './run-workspace.js';

/**
 * Drives a run one step, from whatever it is at: a new run, a start job, a
 * resume job with the people's decisions, or (taken over from a dead owner)
 * its last checkpoint. Everything is kept through the step's journal, only
 * while this worker still holds the run's lease; the step ends with the run
 * paused for approval or finished.
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
  const setup = stepOptions(
    ctx,
    run,
    writer,
    hooks,
    workspace,
    start.kind === 'new' ? start.historySeqs : [],
  );
  const { journal } = setup;

  // 1. Lease: the worker leased this run (or this process started it: its journal stores it
  // when it must). One taken over from a dead owner first reports the effects it cut off.
  if (start.kind === 'leased' && start.leased.takenOver)
    await reportTakeover(ctx, writer, start.leased);

  // 2. Load and parse: what the run needs next, its stored state read. A job that could not be
  // read ends the run failed, naming the field.
  if (start.kind === 'leased' && start.leased.damaged) throw start.leased.damaged;
  const step = start.kind === 'new' ? firstStep(start) : await nextStep(ctx, run);
  if (step.kind === 'new' && step.historySeqs) setup.coverHistory(step.historySeqs);

  // 3. Apply the decision, 4. continue: the loop runs the decided calls (each claimed in the
  // journal, so none runs twice), then takes turns until the run finishes or pauses.
  // A recorded run that paused kept its recording so far beside where the trajectory goes; one
  // taken over after it resumed goes on with it too, with the decisions it resumed with.
  const paused = step.kind === 'new' ? undefined : await readPausedRecording(ctx, run.id);
  const resumed = paused && {
    previous: paused,
    decisions: run.job?.kind === 'resume' ? run.job.decisions : {},
  };
  const { outcome, recording } = await executeStep(definition, step, setup.options, resumed);
  if (hooks.abandoned()) return { kind: 'elsewhere' };
  if (recording) await keepRecording(ctx, run.id, recording, outcome);

  // 5. Save: the run pauses with its approvals, or ends.
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
      ? await journal.pause(outcome.state, outcome.pending)
      : await journal.finish(outcome.result);
  if (!settled) return { kind: 'elsewhere' };
  // Cancelled as it paused: the run ends here, and the recording its pause kept goes.
  if (recording && outcome.status === 'paused' && settled.status === 'cancelled')
    await dropPausedRecording(ctx, run.id);
  return { kind: 'settled', run: settled, actionsCreated: setup.actionsCreated() };
}
