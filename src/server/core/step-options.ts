import { runAdapters } from '../../agents/run-adapters.js';
import type { RunJournal } from '../../contracts/run-journal.js';
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
import { storeJournal } from './store-journal.js';

/** The options one step of a server run executes with, and what the step learns as it goes. */
export interface StepSetup {
  options: ExecutionOptions;
  /** Where the run is kept: its lease, saves, pause, claims and ending. */
  journal: RunJournal<Run>;
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
  let actionsCreated = false;
  const beforeAction = (): Promise<void> => {
    actionsCreated = true;
    return journal.lease();
  };
  const guard = actionGuard(ctx, run.id, writer.owner, () => model, hooks.abandoned, beforeAction);
  const journal = storeJournal(run, writer, guard, paused);
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
    policy: serverGatePolicy(
      ctx,
      run.userId,
      run.id,
      () => model,
      () => journal.lease(),
    ),
    // The person's decision, not durability: it stays apart from the journal.
    confirm: pauseForApproval(ctx, run.id, () => model, paused, beforeAction),
    journal,
    ...(traced.onEvent ? { onEvent: traced.onEvent } : {}),
    ...(traced.traceCarrier ? { traceCarrier: traced.traceCarrier } : {}),
  };
  return {
    options,
    journal,
    actionsCreated: () => actionsCreated,
    coverHistory: (seqs) => {
      covered = seqs;
    },
  };
}
