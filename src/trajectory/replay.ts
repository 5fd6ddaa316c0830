import type { AgentLookup } from '../contracts/agent.js';
import type { CadreEvent } from '../events/types.js';
import type { ConfirmationHandler } from '../contracts/confirmation.js';
import { type RunOptions } from '../runtime/loop/executor.js';
import { run } from '../agents/run-verbs.js';
import type { RunResult } from '../contracts/run-result.js';
import type { Runtime } from '../runtime/loop/runtime.js';
import type { AgentDefinition } from '../definition/types.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { Tool } from '../tools/types.js';
import { jsonClone } from '../util/json-hash.js';
import { definitionFromSnapshot, definitionHash } from '../definition/definition-snapshot.js';
import { startRecording } from './recorder.js';
import { replayConfirm } from './replay-confirm.js';
import { ReplayLog, type ReplayReport } from './replay-log.js';
import { ReplayModel, type LiveModel } from './replay-model.js';
import { replayTools } from './replay-tools.js';
import type { Trajectory } from './types.js';
import type { Clock } from '../util/clock.js';

export interface ReplayOptions {
  /** Run this definition instead of the recorded snapshot (an edited file): divergences show what changed. */
  definition?: AgentDefinition;
  /** The first divergence ends the run as an ERROR. */
  strict?: boolean;
  /** Re-run read-only tools for real (needs `tools`). Side-effecting tools never run during replay. */
  liveTools?: boolean;
  /** The real tools, for `liveTools` and for after a fork. */
  tools?: ToolRegistry | readonly Tool[];
  /** Agents the run may call (subagents run again, their model steps replayed too). */
  agents?: AgentLookup;
  /** Fork: replay this many model steps, then continue with `live`. */
  until?: number;
  live?: () => LiveModel;
  /** Replay recorded delays scaled by this factor; absent = as fast as possible. */
  timingScale?: number;
  /** What those delays wait on (default the real clock); tests pass their own. */
  clock?: Clock;
  /** Decides side effects after a fork; before it, the recorded decisions are replayed. */
  confirm?: ConfirmationHandler;
  onEvent?: (event: CadreEvent) => void;
  signal?: AbortSignal;
  workspace?: string;
  runtime?: Runtime;
  /** Also record the replayed run (a fork is a new trajectory). */
  record?: boolean;
}

export interface ReplayOutcome {
  result: RunResult;
  report: ReplayReport;
  trajectory?: Trajectory;
}

/**
 * Re-runs a recorded agent through the real executor with recorded model
 * responses and tool outputs: no network, no side effects. Requests are
 * matched against the recording and every divergence is reported.
 */
export async function replayTrajectory(
  trajectory: Trajectory,
  options: ReplayOptions = {},
): Promise<ReplayOutcome> {
  const log = new ReplayLog();
  const definition = options.definition ?? definitionFromSnapshot(trajectory.agent);
  const changed = options.definition
    ? (await definitionHash(options.definition)) !== trajectory.agent.definition_hash
    : false;
  if (!options.definition && trajectory.agent.dropped.length > 0)
    log.notes.push(
      `The recorded definition had code (${trajectory.agent.dropped.join(', ')}) that a snapshot cannot hold; pass the definition to use it.`,
    );
  const model = new ReplayModel(trajectory.model_steps, {
    log,
    ...(options.strict ? { strict: true } : {}),
    ...(options.until !== undefined ? { until: options.until } : {}),
    ...(options.live ? { live: options.live } : {}),
    ...(options.timingScale ? { timingScale: options.timingScale } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const resolved = trajectory.model.resolved;
  const usedResolver = Object.keys(resolved).length > 0;
  const runOptions: RunOptions = {
    inputs: jsonClone(trajectory.inputs),
    // The recorded model ids, so the requests carry what the recording's did.
    defaultModel: trajectory.model.name,
    resolveModel: (requested) => ({
      client: model,
      model: resolved[requested] ?? (usedResolver ? trajectory.model.name : requested),
    }),
    tools: replayTools(trajectory, {
      log,
      ...(options.tools ? { real: options.tools } : {}),
      ...(options.liveTools ? { liveTools: true } : {}),
      ...(options.timingScale ? { timingScale: options.timingScale } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    }),
    confirm: replayConfirm(trajectory, log, options.confirm),
    ...(options.agents ? { agents: options.agents } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    ...(options.runtime ? { runtime: options.runtime } : {}),
  };
  const recording = options.record ? await startRecording(definition, runOptions) : undefined;
  const result = await run(definition, recording?.options ?? runOptions);
  const report: ReplayReport = {
    trajectory_id: trajectory.id,
    agent: trajectory.agent.name,
    model_steps: { recorded: trajectory.model_steps.length, ...log.model },
    tool_steps: { recorded: trajectory.tool_steps.length, ...log.tools },
    ...(log.forkedAt !== undefined ? { forked_at: log.forkedAt } : {}),
    definition_changed: changed,
    divergences: log.divergences,
    notes: log.notes,
  };
  return { result, report, ...(recording ? { trajectory: recording.finish(result) } : {}) };
}
