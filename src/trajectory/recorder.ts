import { randomUUID } from 'node:crypto';
import { ConfigError } from '../errors/cadre-error.js';
import type { GenerationConfig } from '../model/types.js';
import { refuseSideEffects, type ResumeDecision } from '../contracts/confirmation.js';
import type { ModelResolver, ExecutionOptions } from '../runtime/loop/executor.js';
import type { RunResult } from '../contracts/run-result.js';
import type { AgentDefinition } from '../definition/types.js';
import { jsonClone } from '../util/json-hash.js';
import { snapshotDefinition } from '../definition/definition-snapshot.js';
import { RecordingModel } from './recording-model.js';
import { describeTool, recordingTool, toolList } from './recording-tools.js';
import { StepLog, type StepLogSnapshot } from './step-log.js';
import { TRAJECTORY_SCHEMA_VERSION, type Trajectory } from './types.js';

const RECORDER = 'cadre/0.1';

/** A run being recorded: run it with `options`, then `finish` with its result. */
export interface Recording {
  /** The caller's options with model, tools, confirm and onEvent decorated. */
  readonly options: ExecutionOptions;
  finish(result: RunResult): Trajectory;
  /** What is recorded so far, for a run that pauses: `startRecording(…, { previous })` goes on. */
  snapshot(): RecordingSnapshot;
}

/** A paused run's recording so far. */
export interface RecordingSnapshot extends StepLogSnapshot {
  started_at: string;
  /** The run's inputs: a resumed step is not given them again. */
  inputs: Record<string, unknown>;
}

export interface RecordingResume {
  previous: RecordingSnapshot;
  /** The people's decisions the run resumes with, by call id: they replace its "pause" answers. */
  decisions: Readonly<Record<string, ResumeDecision>>;
}

/**
 * Prepares the recording of one root run by decoration only: the executor
 * is untouched, and subagents are recorded too because they share the
 * root's model, tools, confirmation handler and event stream.
 */
export async function startRecording(
  definition: AgentDefinition,
  options: ExecutionOptions = {},
  resume?: RecordingResume,
): Promise<Recording> {
  if (options.services || options.events || options.execution)
    throw new ConfigError(
      'Record the root run: services, events and execution belong to subagents.',
    );
  const log = resume ? StepLog.restore(resume.previous) : new StepLog();
  if (resume) decideResumed(log, resume.decisions);
  const agent = await snapshotDefinition(definition);
  const startedAt = resume?.previous.started_at ?? new Date().toISOString();
  const inputs = resume?.previous.inputs ?? options.inputs ?? {};
  const started = performance.now() - (resume ? Date.now() - Date.parse(startedAt) : 0);
  const tools = toolList(options.tools);
  const confirm = options.confirm ?? refuseSideEffects;
  const onEvent = options.onEvent;
  const resolveModel = options.resolveModel;
  const recordingResolver: ModelResolver | undefined = resolveModel
    ? (name) => {
        const resolved = resolveModel(name);
        log.resolved[name] = resolved.model;
        return { ...resolved, client: new RecordingModel(resolved.client, log) };
      }
    : undefined;
  const decorated: ExecutionOptions = {
    ...options,
    tools: tools.map((tool) => recordingTool(tool, log)),
    onEvent: (event) => {
      log.addEvent(event);
      onEvent?.(event);
    },
    confirm: async (request, signal) => {
      const decision = await confirm(request, signal);
      log.approvals.push({
        call_id: request.callId,
        tool: request.tool,
        execution_id: request.execution.executionId,
        decision: jsonClone(decision),
      });
      return decision;
    },
    ...(options.model ? { model: new RecordingModel(options.model, log) } : {}),
    ...(recordingResolver ? { resolveModel: recordingResolver } : {}),
  };

  return {
    options: decorated,
    snapshot: () => ({ ...log.snapshot(), started_at: startedAt, inputs: jsonClone(inputs) }),
    finish(result) {
      const root = log.events.find((e) => e.type === 'run_started' && e.depth === 0);
      const modelName =
        (typeof root?.data.model === 'string' ? root.data.model : undefined) ??
        log.modelSteps[0]?.request.model ??
        'unknown';
      const tokensUnavailable = log.modelSteps.filter((s) => !s.usage && !s.error).length;
      return {
        schema_version: TRAJECTORY_SCHEMA_VERSION,
        id: randomUUID(),
        run_id: result.run_id,
        agent,
        inputs: jsonClone(inputs),
        model: {
          name: modelName,
          provider: [...log.providers].join(',') || 'unknown',
          config: log.modelSteps[0]?.request.config ?? generationConfigOf(definition),
          resolved: { ...log.resolved },
        },
        tools: tools.map(describeTool),
        model_steps: log.modelSteps,
        tool_steps: log.toolSteps,
        approvals: log.approvals,
        events: log.events,
        metadata: {
          started_at: startedAt,
          finished_at: new Date().toISOString(),
          duration_ms: Math.round(performance.now() - started),
          total_tokens: result.usage.totalTokens,
          usage: { ...result.usage },
          tokens_unavailable_count: tokensUnavailable,
          terminate_reason: result.terminate_reason,
          model: modelName,
          final_result: jsonClone(result),
          recorder: RECORDER,
        },
      };
    },
  };
}

/** A paused call's recorded "pause" becomes what the person decided, so a replay decides alike. */
function decideResumed(log: StepLog, decisions: Readonly<Record<string, ResumeDecision>>): void {
  for (const approval of log.approvals) {
    const decided = decisions[approval.call_id];
    if (approval.decision.kind !== 'pause' || !decided || decided.kind === 'ask_again') continue;
    approval.decision = jsonClone(decided);
  }
}

/** The generation config the runtime derives from a definition (used when no step ran). */
function generationConfigOf(definition: AgentDefinition): GenerationConfig {
  const m = definition.modelConfig;
  return jsonClone({
    temperature: m?.temp,
    topP: m?.top_p,
    thinkingBudget: m?.thinkingBudget,
    maxOutputTokens: m?.maxOutputTokens,
    topK: m?.topK,
    stopSequences: m?.stopSequences,
  });
}
