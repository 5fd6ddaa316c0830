import { randomUUID } from 'node:crypto';
import { ConfigError } from '../errors/cadre-error.js';
import type { GenerationConfig } from '../model/types.js';
import { refuseSideEffects } from '../runtime/calls/confirmation.js';
import type { ModelResolver, ExecutionOptions } from '../runtime/loop/executor.js';
import type { RunResult } from '../contracts/run-result.js';
import type { AgentDefinition } from '../definition/types.js';
import { jsonClone } from './canonical-json.js';
import { snapshotDefinition } from './definition-snapshot.js';
import { RecordingModel } from './recording-model.js';
import { describeTool, recordingTool, toolList } from './recording-tools.js';
import { StepLog } from './step-log.js';
import { TRAJECTORY_SCHEMA_VERSION, type Trajectory } from './types.js';

export const RECORDER = 'cadre/0.1';

/** A run being recorded: run it with `options`, then `finish` with its result. */
export interface Recording {
  /** The caller's options with model, tools, confirm and onEvent decorated. */
  readonly options: ExecutionOptions;
  finish(result: RunResult): Trajectory;
}

/**
 * Prepares the recording of one root run by decoration only: the executor
 * is untouched, and subagents are recorded too because they share the
 * root's model, tools, confirmation handler and event stream.
 */
export async function startRecording(
  definition: AgentDefinition,
  options: ExecutionOptions = {},
): Promise<Recording> {
  if (options.services || options.events || options.execution)
    throw new ConfigError(
      'Record the root run: services, events and execution belong to subagents.',
    );
  const log = new StepLog();
  const agent = await snapshotDefinition(definition);
  const startedAt = new Date().toISOString();
  const started = performance.now();
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
        inputs: jsonClone(options.inputs ?? {}),
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
