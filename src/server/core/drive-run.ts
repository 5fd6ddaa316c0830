import { join } from 'node:path';
import { storeUnavailableIn } from '../../errors/store-error.js';
import type { CadreEvent } from '../../events/types.js';
import type { Message } from '../../model/types.js';
import { startRecording } from '../../trajectory/recorder.js';
import { saveTrajectory } from '../../trajectory/load-trajectory.js';
import { drive, NEW_RUN, type RunOutcome } from '../../runtime/loop/executor.js';
import type { ExecutionOptions } from '../../runtime/loop/run-options.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { RunState } from '../../contracts/run-state.js';
import type { Claim, Run, RunJob, StartExtras, ThreadMessage } from '../../store/types.js';
import { actionGuard } from './action-guard.js';
import { approvalMessage } from './approval-message.js';
import { auditCutOff } from './audit-log.js';
import { closeUnrunActions } from './close-unrun.js';
import { modelStringFor } from './run-model.js';
import type { RunRecorder } from './run-recorder.js';
import { pinnedDefinition } from './pick-definition.js';
import { parkForApproval, serverGatePolicy, type ParkedCall } from './park-for-approval.js';
import { HISTORY_MESSAGES, type ServerContext } from './server-context.js';
import { observed } from '../../telemetry/observed.js';
import { threadHistory, withThroughSeq } from './thread-context.js';

/** How a worker drives one run. */
export interface DriveHooks {
  /** Cancels the run (a person asked) or abandons it (see `abandoned`). */
  signal: AbortSignal;
  /** True when this process hands the run over (shutdown, lost lease): nothing more is recorded. */
  abandoned: () => boolean;
  owner: string;
}

/** Where a drive starts: a run claimed from the store, or one this process just started. */
export type DriveStart =
  | { kind: 'claimed'; claim: Claim }
  | {
      kind: 'new';
      run: Run;
      definition: AgentDefinition;
      history: Message[];
      historySeqs?: readonly number[];
      record: boolean;
    };

/** The run a drive starts from. */
export const runOf = (start: DriveStart): Run =>
  start.kind === 'claimed' ? start.claim.run : start.run;

/** How a drive ended for whoever follows it in this process. */
export type DriveResult =
  | { kind: 'settled'; run: Run; actionsCreated: boolean }
  /** Handed over (shutdown, lost lease) or failed outside the loop: follow it through the store. */
  | { kind: 'elsewhere' }
  /** Stopped before it was ever stored: there is nothing to follow. */
  | { kind: 'failed'; error: Error };

/**
 * Drives a run one step, from whatever it is at: a new run, a start job, a
 * resume job with the people's decisions, or (taken over from a dead owner)
 * its last checkpoint. Everything is recorded through `recorder`, only
 * while this worker still owns the run; the step ends with the run parked
 * for approval or finished.
 */
export async function driveRun(
  ctx: ServerContext,
  start: DriveStart,
  recorder: RunRecorder,
  hooks: DriveHooks,
): Promise<DriveResult> {
  const run = runOf(start);
  try {
    return await driveStep(ctx, start, recorder, hooks);
  } catch (error) {
    if (hooks.abandoned()) return { kind: 'elsewhere' };
    // The store was away: the worker hands the run back, to go on from its checkpoint, not fail.
    if (storeUnavailableIn(error)) throw error;
    // A run that cannot even start (no model configured, a bad stored state) ends failed
    // instead of being taken over and failing again forever.
    if (recorder.stored()) await closeUnrunActions(ctx, run).catch(() => undefined);
    const finished = await recorder
      .finish({
        status: 'failed',
        summary: `The run could not go on: ${error instanceof Error ? error.message : String(error)}`,
        usage: run.usage,
        errorCode: 'internal',
      })
      .catch(() => undefined);
    if (!finished) throw error;
    return { kind: 'settled', run: finished, actionsCreated: true };
  }
}

async function driveStep(
  ctx: ServerContext,
  start: DriveStart,
  recorder: RunRecorder,
  hooks: DriveHooks,
): Promise<DriveResult> {
  const run = runOf(start);
  let model = run.model;
  const parked: ParkedCall[] = [];
  // Actions and audit entries name the run: it is stored before the first one is written.
  const ensureStored = async (): Promise<void> => {
    if (!recorder.stored()) await recorder.store();
  };
  let actionsCreated = false;
  const beforeAction = (): Promise<void> => {
    actionsCreated = true;
    return ensureStored();
  };
  const guard = actionGuard(ctx, run.id, () => model, hooks.abandoned, beforeAction);
  const definition = start.kind === 'new' ? start.definition : await pinnedDefinition(ctx, run);
  // Read when the run summarises its thread, to store which messages the summary covers.
  let historySeqs: readonly number[] = start.kind === 'new' ? (start.historySeqs ?? []) : [];
  const options: ExecutionOptions = {
    runId: run.id,
    tools: ctx.tools,
    mcpServers: ctx.mcpServers,
    prices: ctx.prices,
    contextWindows: ctx.contextWindows,
    agents: ctx.agents,
    resolveModel: (name) => {
      const resolved = ctx.resolveModel(modelStringFor(name, run.model), run.threadId);
      model = resolved.model;
      return resolved;
    },
    ...(ctx.defaultModel ? { defaultModel: ctx.defaultModel } : {}),
    runtime: ctx.runtime,
    workspace: ctx.workspace,
    ...(ctx.protectedPaths ? { protectedPaths: ctx.protectedPaths } : {}),
    signal: hooks.signal,
    policy: serverGatePolicy(ctx, run.userId, run.id, () => model, ensureStored),
    confirm: parkForApproval(ctx, run.id, () => model, parked, beforeAction),
    claim: guard.claim,
    settle: guard.settle,
    // The state is stored only before side effects run (and with the approvals when the run
    // parks). A process that dies leaves that checkpoint: the next owner answers its calls from
    // their action records and asks the model again for any later turn, which had no effects.
    checkpoint: (state) => recorder.checkpoint(structuredClone(state) as RunState),
    onEvent: observed(
      ctx.telemetry,
      (event) =>
        recorder.event(
          event.type === 'run_started'
            ? { ...event, data: { ...event.data, threadId: run.threadId } }
            : withThroughSeq(event, historySeqs),
        ),
      { conversationId: run.threadId },
    ),
  };
  if (start.kind === 'claimed' && start.claim.takenOver) {
    const { claim } = start;
    recorder.event(takeoverEvent(run, claim));
    // The trail says what the dead owner may have done: each cut-off effect, outcome unknown.
    for (const action of claim.interrupted) {
      await auditCutOff(ctx.store, run, action, {
        errorCode: 'interrupted',
        approvalReason: 'approved by a person',
      });
    }
  }
  let outcome: RunOutcome;
  let recording: Awaited<ReturnType<typeof startRecording>> | undefined;
  const step: Step =
    start.kind === 'new'
      ? {
          kind: 'start',
          prompt: startPrompt(run),
          record: start.record,
          history: start.history,
          ...startExtras(run.job),
        }
      : await nextStep(ctx, run);
  if (step.kind === 'start' && step.historySeqs) historySeqs = step.historySeqs;
  switch (step.kind) {
    case 'start': {
      const started: ExecutionOptions = {
        ...options,
        inputs: step.inputs ?? { prompt: step.prompt },
        history: step.history,
        historyWindow: HISTORY_MESSAGES,
        ...(step.conversation ? { conversation: step.conversation } : {}),
      };
      // The recording keeps the inputs, so the trajectory replays (and forks) as it ran.
      if (step.record) recording = await startRecording(definition, started);
      outcome = await drive(definition, NEW_RUN, recording?.options ?? started);
      break;
    }
    case 'resume':
      outcome = await drive(
        definition,
        { kind: 'resume', state: step.state, decisions: step.job.decisions },
        options,
      );
      break;
    case 'recover':
      outcome = await drive(definition, { kind: 'recover', state: step.state }, options);
      break;
    default:
      return step satisfies never;
  }
  if (hooks.abandoned()) return { kind: 'elsewhere' };
  if (recording && outcome.status === 'finished') {
    // Trajectories cover runs that finish in one go; a paused run is not recorded.
    await saveTrajectory(
      join(ctx.workspace, '.cadre', 'runs', `${run.id}.json`),
      recording.finish(outcome.result),
    );
  }
  // A run failing before it made the calls it waited on (its model unreachable on resume) leaves
  // none looking as if a person still had to decide; closed first, so its end shows them closed.
  if (
    outcome.status === 'finished' &&
    outcome.result.terminate_reason !== 'GOAL' &&
    recorder.stored()
  )
    await closeUnrunActions(ctx, run);
  const settled = await record(run, recorder, outcome, parked);
  if (!settled) return { kind: 'elsewhere' };
  return { kind: 'settled', run: settled, actionsCreated };
}

type Step =
  | ({
      kind: 'start';
      prompt: string;
      record: boolean;
      history: Message[];
      historySeqs?: readonly number[];
    } & StartExtras)
  | { kind: 'resume'; job: Extract<RunJob, { kind: 'resume' }>; state: RunState }
  | { kind: 'recover'; state: RunState };

/** What the store says the run needs next. */
async function nextStep(ctx: ServerContext, run: Run): Promise<Step> {
  const { state, job } = run;
  if (state?.status === 'paused' && job?.kind === 'resume') return { kind: 'resume', job, state };
  if (state?.status === 'running') return { kind: 'recover', state };
  if (!state && job?.kind === 'start') {
    const thread = await threadHistory(ctx.store, run.threadId, job.messageSeq);
    return {
      kind: 'start',
      prompt: job.prompt,
      record: job.record === true,
      ...thread,
      ...startExtras(job),
    };
  }
  throw new Error(
    `Run ${run.id} has nothing to do (state ${state?.status ?? 'none'}, job ${job?.kind ?? 'none'}).`,
  );
}

function takeoverEvent(run: Run, claim: Claim): CadreEvent {
  const unknown = claim.interrupted.map((a) => ({
    actionId: a.id,
    tool: a.tool,
    callId: a.callId,
  }));
  return {
    type: 'run_taken_over',
    message:
      unknown.length > 0
        ? `Another process took this run over; ${unknown.map((u) => u.tool).join(', ')} may or may not have happened`
        : 'Another process took this run over',
    timestamp: new Date().toISOString(),
    data: { interrupted: unknown },
    runId: run.id,
    executionId: run.id,
    depth: 0,
    path: [run.agent],
    seq: 0,
  };
}

/** The step's end: parked for approval, or finished; undefined when the run was lost meanwhile. */
async function record(
  run: Run,
  recorder: RunRecorder,
  outcome: RunOutcome,
  parked: ParkedCall[],
): Promise<Run | undefined> {
  if (outcome.status === 'paused') {
    const result = await recorder.park({
      state: outcome.state,
      summary: 'Waiting for approval.',
      message: approvalMessage(outcome.state, outcome.pending),
      approvals: parked.map((p) => ({
        actionId: p.actionId,
        callId: p.callId,
        tool: p.tool,
        inputHash: p.inputHash,
        definitionHash: run.definitionHash,
        userId: run.userId,
      })),
    });
    return result?.run;
  }
  const result = outcome.result;
  const ok = result.terminate_reason === 'GOAL';
  const cancelled = result.terminate_reason === 'ABORTED';
  return recorder.finish({
    status: ok ? 'completed' : cancelled ? 'cancelled' : 'failed',
    summary: cancelled ? 'Cancelled.' : result.final_message,
    usage: result.usage,
    message: result.content,
    ...(ok
      ? {}
      : {
          errorCode: cancelled
            ? 'cancelled'
            : (result.error?.code ?? result.terminate_reason.toLowerCase()),
        }),
  });
}

/** A start job's inputs and fork conversation, when it has them. */
function startExtras(job: RunJob | undefined): StartExtras {
  if (job?.kind !== 'start') return {};
  return {
    ...(job.inputs ? { inputs: job.inputs } : {}),
    ...(job.conversation ? { conversation: job.conversation } : {}),
  };
}

/** The prompt of a run that has not stored its start job yet. */
function startPrompt(run: Run): string {
  return run.job?.kind === 'start' ? run.job.prompt : '';
}

export function toHistory(messages: readonly ThreadMessage[]): Message[] {
  return messages
    .filter((m) => m.role !== 'system' && m.content.trim())
    .map((m) => ({
      role: m.role === 'user' ? 'user' : 'model',
      parts: [{ kind: 'text', text: m.content }],
    }));
}
