import { join } from 'node:path';
import type { Message } from '../../model/types.js';
import { startRecording } from '../../trajectory/recorder.js';
import { saveTrajectory } from '../../trajectory/load-trajectory.js';
import { startRun, resumeRun, type RunOutcome } from '../../runtime/executor.js';
import type { ConfirmationDecision } from '../../runtime/confirmation.js';
import type { RunOptions } from '../../runtime/run-options.js';
import type { AgentDefinition } from '../../spec/types.js';
import type { Run } from '../../store/types.js';
import type { RunHooks, RunResponse } from '../run-service-types.js';
import { actionGuard } from './action-guard.js';
import { eventWriter } from './event-writer.js';
import { policyConfirm, type ParkedCall } from './policy-confirm.js';
import type { ServerContext } from './server-context.js';
import { runResponse } from './views.js';

export type Step =
  | { kind: 'start'; prompt: string; history: Message[]; record?: boolean }
  | { kind: 'resume'; decisions: Record<string, ConfirmationDecision> };

/**
 * Runs (or resumes) one agent run against the store: events and loop state
 * are persisted as they happen, side effects are claimed and settled, and
 * the outcome becomes the run's status, the thread's reply and the response.
 */
export async function driveRun(
  ctx: ServerContext,
  userId: string,
  run: Run,
  definition: AgentDefinition,
  step: Step,
  hooks: RunHooks = {},
): Promise<RunResponse> {
  const writer = eventWriter(ctx.store, run.id);
  let model = run.model;
  const parked: ParkedCall[] = [];
  const guard = actionGuard(ctx, run.id, () => model);
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
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    confirm: policyConfirm(ctx, userId, run.id, () => model, parked),
    claim: guard.claim,
    settle: guard.settle,
    onEvent: (event) => {
      const stamped =
        event.type === 'run_started'
          ? { ...event, data: { ...event.data, threadId: run.threadId } }
          : event;
      writer.write(stamped);
      hooks.onEvent?.(stamped);
    },
  };
  let outcome: RunOutcome;
  const recording =
    step.kind === 'start' && step.record ? await startRecording(definition, options) : undefined;
  try {
    outcome =
      step.kind === 'start'
        ? await startRun(definition, {
            ...(recording?.options ?? options),
            inputs: { prompt: step.prompt },
            history: step.history,
          })
        : await resumeRun(definition, run.state ?? failMissingState(run), step.decisions, {
            ...options,
            // Streamed seqs match stored ones, so a client can re-attach with ?after=.
            afterEventSeq: (await ctx.store.readEvents(run.id, {})).at(-1)?.seq ?? 0,
          });
  } finally {
    await writer.flush();
  }
  if (recording && outcome.status === 'finished') {
    // Trajectories cover runs that finish in one go; a paused run is not recorded.
    await saveTrajectory(
      join(ctx.workspace, '.cadre', 'runs', `${run.id}.json`),
      recording.finish(outcome.result),
    );
  }
  return record(ctx, userId, run, outcome, parked);
}

async function record(
  ctx: ServerContext,
  userId: string,
  run: Run,
  outcome: RunOutcome,
  parked: ParkedCall[],
): Promise<RunResponse> {
  if (outcome.status === 'paused') {
    await ctx.store.createApprovals(
      parked.map((p) => ({
        runId: run.id,
        actionId: p.actionId,
        callId: p.callId,
        tool: p.tool,
        inputHash: p.inputHash,
        definitionHash: run.definitionHash,
        userId,
      })),
    );
    const asks = outcome.pending.map((p) => `- ${p.preview}`).join('\n');
    await ctx.store.appendMessage({
      threadId: run.threadId,
      role: 'assistant',
      content: `I need your approval to:\n${asks}`,
      runId: run.id,
    });
    const updated = await ctx.store.updateRun(run.id, {
      status: 'awaiting_confirmation',
      state: outcome.state,
      summary: 'Waiting for approval.',
      usage: outcome.state.usage,
    });
    return runResponse(ctx, userId, updated.ok ? updated.value : run);
  }
  const result = outcome.result;
  const ok = result.terminate_reason === 'GOAL';
  await ctx.store.appendMessage({
    threadId: run.threadId,
    role: 'assistant',
    content: result.content,
    runId: run.id,
  });
  const updated = await ctx.store.updateRun(run.id, {
    status: ok ? 'completed' : 'failed',
    summary: result.final_message,
    usage: result.usage,
    model: run.model,
    ...(ok ? {} : { errorCode: result.error?.code ?? result.terminate_reason.toLowerCase() }),
  });
  return runResponse(ctx, userId, updated.ok ? updated.value : run);
}

function failMissingState(run: Run): never {
  throw new Error(`Run ${run.id} has no stored state to resume from.`);
}
