import type { RunState } from '../../contracts/run-state.js';
import { runAdapters } from '../../agents/run-adapters.js';
import type { ExecutionOptions } from '../../runtime/loop/run-options.js';
import type { Run } from '../../store/types.js';
import { observedRun } from '../../telemetry/observed.js';
import { actionGuard } from './action-guard.js';
import type { DriveHooks } from './drive-types.js';
import { pauseForApproval, serverGatePolicy, type WaitingCall } from './pause-for-approval.js';
import type { RunWriter } from './run-writer.js';
import { modelStringFor } from './run-model.js';
import type { ServerContext } from './server-context.js';
import { withThroughSeq } from './thread-context.js';

/** The options one step of a server run executes with, and what the step learns as it goes. */
export interface StepSetup {
  options: ExecutionOptions;
  /** The calls the run pauses on, filled as the loop asks for approval. */
  paused: WaitingCall[];
  /** Whether the step wrote an action (a side effect was claimed or paused). */
  actionsCreated(): boolean;
  /** The thread messages the run's history covers (the start step reads them). */
  coverHistory(seqs: readonly number[]): void;
}

/**
 * Wires a step into the server: the workspace of the run's user (or thread), models from the run's own, the gate policy
 * and approvals of its user, exactly-once effects through action records,
 * checkpoints and events through the writer, which keeps them only while
 * this worker owns the run.
 */
export function stepOptions(
  ctx: ServerContext,
  run: Run,
  writer: RunWriter,
  hooks: DriveHooks,
  workspace: string,
  historySeqs: readonly number[] = [],
): StepSetup {
  let model = run.model;
  const paused: WaitingCall[] = [];
  // Read when the run summarises its thread, to store which messages the summary covers.
  let covered = historySeqs;
  // Actions and audit entries name the run: it is stored before the first one is written.
  const ensureStored = async (): Promise<void> => {
    if (!writer.stored()) await writer.store();
  };
  let actionsCreated = false;
  const beforeAction = (): Promise<void> => {
    actionsCreated = true;
    return ensureStored();
  };
  const guard = actionGuard(ctx, run.id, () => model, hooks.abandoned, beforeAction);
  // A run started by a traced request continues the caller's trace.
  const parent = run.job?.kind === 'start' ? run.job.trace : undefined;
  const traced = observedRun(
    ctx.telemetry,
    (event) =>
      writer.event(
        event.type === 'run_started'
          ? { ...event, data: { ...event.data, threadId: run.threadId } }
          : withThroughSeq(event, covered),
      ),
    { conversationId: run.threadId, ...(parent ? { parent } : {}) },
  );
  const options: ExecutionOptions = {
    runId: run.id,
    tools: ctx.tools,
    mcpServers: ctx.mcpServers,
    adapters: runAdapters,
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
    workspace,
    ...(ctx.protectedPaths ? { protectedPaths: ctx.protectedPaths } : {}),
    signal: hooks.signal,
    policy: serverGatePolicy(ctx, run.userId, run.id, () => model, ensureStored),
    confirm: pauseForApproval(ctx, run.id, () => model, paused, beforeAction),
    claim: guard.claim,
    settle: guard.settle,
    // The state is stored only before side effects run (and with the approvals when the run
    // pauses). A process that dies leaves that checkpoint: the next owner answers its calls from
    // their action records and asks the model again for any later turn, which had no effects.
    checkpoint: (state) => writer.checkpoint(structuredClone(state) as RunState),
    ...(traced.onEvent ? { onEvent: traced.onEvent } : {}),
    ...(traced.traceCarrier ? { traceCarrier: traced.traceCarrier } : {}),
  };
  return {
    options,
    paused,
    actionsCreated: () => actionsCreated,
    coverHistory: (seqs) => {
      covered = seqs;
    },
  };
}
