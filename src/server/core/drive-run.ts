import { join } from 'node:path';
import { CancelledError } from '../../errors/cadre-error.js';
import type { CadreEvent } from '../../events/types.js';
import type { Message } from '../../model/types.js';
import { startRecording } from '../../trajectory/recorder.js';
import { saveTrajectory } from '../../trajectory/load-trajectory.js';
import { recoverRun, resumeRun, startRun, type RunOutcome } from '../../runtime/executor.js';
import type { RunOptions } from '../../runtime/run-options.js';
import type { RunState } from '../../runtime/run-state.js';
import type { Claim, Run, RunJob, ThreadMessage } from '../../store/types.js';
import { normalizeCall } from '../../policy/normalize-call.js';
import { actionGuard } from './action-guard.js';
import { audit } from './audit-log.js';
import { eventWriter } from './event-writer.js';
import { pinnedDefinition } from './pick-definition.js';
import { parkForApproval, serverGatePolicy, type ParkedCall } from './park-for-approval.js';
import { HISTORY_MESSAGES, type ServerContext } from './server-context.js';

/** How a worker drives one claimed run. */
export interface DriveHooks {
  /** Cancels the run (a person asked) or abandons it (see `abandoned`). */
  signal: AbortSignal;
  /** True when this process hands the run over (shutdown, lost lease): nothing more is recorded. */
  abandoned: () => boolean;
  /** Called after events or the status were stored: wakes attached readers. */
  changed: () => void;
  owner: string;
}

/**
 * Drives a claimed run one step, from whatever the store says it is at: a
 * start job, a resume job with the people's decisions, or (taken over from
 * a dead owner) its last checkpoint. Events and state are persisted as the
 * loop goes; the step ends with the run parked for approval or finished,
 * written only while this worker still owns it.
 */
export async function driveRun(ctx: ServerContext, claim: Claim, hooks: DriveHooks): Promise<void> {
  // Lost when a guarded write finds another owner: from then on nothing more is recorded.
  let lost = false;
  const abandoned = (): boolean => lost || hooks.abandoned();
  try {
    await driveStep(ctx, claim, { ...hooks, abandoned }, () => (lost = true));
  } catch (error) {
    if (abandoned()) return;
    // A run that cannot even start (no model configured, a bad stored state) ends failed
    // instead of being taken over and failing again forever.
    const finished = await ctx.store
      .finishRun({
        runId: claim.run.id,
        owner: hooks.owner,
        status: 'failed',
        summary: `The run could not go on: ${error instanceof Error ? error.message : String(error)}`,
        usage: claim.run.usage,
        errorCode: 'internal',
      })
      .catch(() => undefined);
    hooks.changed();
    if (!finished) throw error;
  }
}

async function driveStep(
  ctx: ServerContext,
  claim: Claim,
  hooks: DriveHooks,
  markLost: () => void,
): Promise<void> {
  const { run } = claim;
  const writer = eventWriter(ctx.store, run.id, hooks.changed);
  let model = run.model;
  const parked: ParkedCall[] = [];
  const guard = actionGuard(ctx, run.id, () => model, hooks.abandoned);
  // State writes are chained so they land in order; each is guarded by ownership.
  let stateWrites: Promise<unknown> = Promise.resolve();
  const persistState = (state: Readonly<RunState>): Promise<unknown> => {
    const snapshot = structuredClone(state) as RunState;
    stateWrites = stateWrites.then(async () => {
      const written = await ctx.store.updateRun(
        run.id,
        { state: snapshot },
        { owner: hooks.owner },
      );
      if (!written.ok) {
        // Another process owns the run now: no side effect may start from here.
        markLost();
        throw new CancelledError('This process no longer owns the run.');
      }
    });
    return stateWrites;
  };
  const definition = await pinnedDefinition(ctx, run);
  const options: RunOptions = {
    runId: run.id,
    tools: ctx.tools,
    agents: ctx.agents,
    resolveModel: (name) => {
      const resolved = ctx.resolveModel(name);
      model = resolved.model;
      return resolved;
    },
    ...(ctx.defaultModel ? { defaultModel: ctx.defaultModel } : {}),
    runtime: ctx.runtime,
    workspace: ctx.workspace,
    signal: hooks.signal,
    policy: serverGatePolicy(ctx, run.userId, run.id, () => model),
    confirm: parkForApproval(ctx, run.id, () => model, parked),
    claim: guard.claim,
    settle: guard.settle,
    // The state is stored only before side effects run (and with the approvals when the run
    // parks). A process that dies leaves that checkpoint: the next owner answers its calls from
    // their action records and asks the model again for any later turn, which had no effects.
    checkpoint: async (state) => {
      await persistState(state);
    },
    onEvent: (event) =>
      writer.write(
        event.type === 'run_started'
          ? { ...event, data: { ...event.data, threadId: run.threadId } }
          : event,
      ),
  };
  if (claim.takenOver) {
    writer.write(takeoverEvent(run, claim));
    // The trail says what the dead owner may have done: each cut-off effect, outcome unknown.
    for (const action of claim.interrupted) {
      const normalized = normalizeCall(action.tool, action.args);
      await audit(ctx.store, {
        runId: run.id,
        actionId: action.id,
        modelName: run.model,
        toolName: action.tool,
        args: normalized.ok ? normalized.args : action.args,
        decision: action.requiresApproval
          ? { mode: 'require_approval', reason: 'approved by a person' }
          : { mode: 'allow' },
        execution: { status: 'failed', errorCode: 'interrupted' },
      });
    }
  }
  let outcome: RunOutcome;
  let recording: Awaited<ReturnType<typeof startRecording>> | undefined;
  try {
    const step = await nextStep(ctx, run);
    if (step.kind === 'start' && step.job.record)
      recording = await startRecording(definition, options);
    // Readers follow the stored log, whose seqs the store assigns; in-memory seqs don't matter here.
    switch (step.kind) {
      case 'start':
        outcome = await startRun(definition, {
          ...(recording?.options ?? options),
          inputs: { prompt: step.job.prompt },
          history: step.history,
        });
        break;
      case 'resume':
        outcome = await resumeRun(definition, step.state, step.job.decisions, options);
        break;
      case 'recover':
        outcome = await recoverRun(definition, step.state, options);
        break;
      default:
        return step satisfies never;
    }
  } finally {
    await writer.flush().catch(() => undefined);
    await stateWrites.catch(() => undefined);
  }
  if (hooks.abandoned()) return;
  if (recording && outcome.status === 'finished') {
    // Trajectories cover runs that finish in one go; a paused run is not recorded.
    await saveTrajectory(
      join(ctx.workspace, '.cadre', 'runs', `${run.id}.json`),
      recording.finish(outcome.result),
    );
  }
  await record(ctx, run, outcome, parked, hooks.owner);
  hooks.changed();
}

type Step =
  | { kind: 'start'; job: Extract<RunJob, { kind: 'start' }>; history: Message[] }
  | { kind: 'resume'; job: Extract<RunJob, { kind: 'resume' }>; state: RunState }
  | { kind: 'recover'; state: RunState };

/** What the store says the run needs next. */
async function nextStep(ctx: ServerContext, run: Run): Promise<Step> {
  const { state, job } = run;
  if (state?.status === 'paused' && job?.kind === 'resume') return { kind: 'resume', job, state };
  if (state?.status === 'running') return { kind: 'recover', state };
  if (!state && job?.kind === 'start') {
    const earlier = await ctx.store.listMessages(run.threadId, {
      limit: HISTORY_MESSAGES + 1,
    });
    return {
      kind: 'start',
      job,
      history: toHistory(earlier.filter((m) => m.seq < job.messageSeq).slice(-HISTORY_MESSAGES)),
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

async function record(
  ctx: ServerContext,
  run: Run,
  outcome: RunOutcome,
  parked: ParkedCall[],
  owner: string,
): Promise<void> {
  if (outcome.status === 'paused') {
    const asks = outcome.pending.map((p) => `- ${p.preview}`).join('\n');
    await ctx.store.parkRun({
      runId: run.id,
      owner,
      state: outcome.state,
      summary: 'Waiting for approval.',
      message: `I need your approval to:\n${asks}`,
      approvals: parked.map((p) => ({
        actionId: p.actionId,
        callId: p.callId,
        tool: p.tool,
        inputHash: p.inputHash,
        definitionHash: run.definitionHash,
        userId: run.userId,
      })),
    });
    return;
  }
  const result = outcome.result;
  const ok = result.terminate_reason === 'GOAL';
  const cancelled = result.terminate_reason === 'ABORTED';
  await ctx.store.finishRun({
    runId: run.id,
    owner,
    status: ok ? 'completed' : 'failed',
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

function toHistory(messages: readonly ThreadMessage[]): Message[] {
  return messages
    .filter((m) => m.role !== 'system' && m.content.trim())
    .map((m) => ({
      role: m.role === 'user' ? 'user' : 'model',
      parts: [{ kind: 'text', text: m.content }],
    }));
}
