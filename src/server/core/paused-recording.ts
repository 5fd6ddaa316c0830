import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RunOutcome } from '../../runtime/loop/executor.js';
import { saveTrajectory } from '../../trajectory/load-trajectory.js';
import type { Recording, RecordingSnapshot } from '../../trajectory/recorder.js';
import { trajectoryFile } from './run-trajectory.js';
import type { ServerContext } from './server-context.js';

/** Where a recorded run that waits for approval keeps its recording so far (never a workspace). */
const pausedFile = (ctx: Pick<ServerContext, 'trajectories'>, runId: string): string =>
  join(ctx.trajectories, `${runId}.paused.json`);

/** The recording a paused run left, if it was recorded; undefined otherwise. */
export async function readPausedRecording(
  ctx: Pick<ServerContext, 'trajectories'>,
  runId: string,
): Promise<RecordingSnapshot | undefined> {
  const text = await readFile(pausedFile(ctx, runId), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as RecordingSnapshot);
}

/** A paused run that will not go on (cancelled while it waited) leaves no recording behind. */
export async function dropPausedRecording(
  ctx: Pick<ServerContext, 'trajectories'>,
  runId: string,
): Promise<void> {
  await rm(pausedFile(ctx, runId), { force: true });
}

/**
 * A finished run's trajectory is saved; a run that paused keeps what was
 * recorded so far, for the step that resumes it (in this process or another
 * sharing the folder) to go on with.
 */
export async function keepRecording(
  ctx: Pick<ServerContext, 'trajectories'>,
  runId: string,
  recording: Recording,
  outcome: RunOutcome,
): Promise<void> {
  if (outcome.status === 'finished') {
    await saveTrajectory(trajectoryFile(ctx, runId), recording.finish(outcome.result));
    await dropPausedRecording(ctx, runId);
    return;
  }
  const paused = pausedFile(ctx, runId);
  await mkdir(dirname(paused), { recursive: true });
  await writeFile(paused, JSON.stringify(recording.snapshot()), { encoding: 'utf8', mode: 0o600 });
}
