import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { CadreEvent, ExecutionContext } from '../events/types.js';
import { emptyUsage, type GenerationConfig, type ModelClient } from '../model/types.js';
import {
  DEFAULT_MAX_TIME_MINUTES,
  DEFAULT_MAX_TURNS,
  type AgentDefinition,
} from '../spec/types.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import type { Tool } from '../tools/types.js';
import { completionDeclarations, completionProtocol } from './completion.js';
import { refuseSideEffects, type ConfirmationHandler } from './confirmation.js';
import { Deadline } from './deadline.js';
import { finishRun } from './finish.js';
import { graceTurn, GRACE_MS } from './grace-turn.js';
import { validateInputs } from './inputs.js';
import type { LoopContext } from './loop-context.js';
import { preparePrompt } from './prompts.js';
import { RunEvents, rootExecution } from './run-events.js';
import type { RunResult } from './run-result.js';
import type { RunState } from './run-state.js';
import { createRuntime, type Runtime } from './runtime.js';
import { isRecoverable, type Stop } from './stop.js';
import { takeTurn } from './take-turn.js';

/** Picks the client for a model string; the CLI and server pass the env-aware resolver. */
export type ModelResolver = (model: string) => { client: ModelClient; model: string };

export interface RunOptions {
  inputs?: Record<string, unknown>;
  /** A client to use whatever the definition says (tests, replay). */
  model?: ModelClient;
  /** Resolves the definition's model string (or `defaultModel`) to a client. */
  resolveModel?: ModelResolver;
  /** Used when the definition names no model. */
  defaultModel?: string;
  /** Tools the definition may be granted from (default: none besides completion tools). */
  tools?: ToolRegistry | readonly Tool[];
  workspace?: string;
  signal?: AbortSignal;
  /** Decides side-effecting calls; the default refuses them (fail closed). */
  confirm?: ConfirmationHandler;
  onEvent?: (event: CadreEvent) => void;
  runId?: string;
  /** The caller's place in the agent tree (subagents); a root run gets its own. */
  execution?: ExecutionContext;
  /** Shared event stamping for a tree of executions. */
  events?: RunEvents;
  runtime?: Runtime;
  graceMs?: number;
  /** Called with the loop state after every turn: where a store persists it. */
  onStateChange?: (state: Readonly<RunState>) => void;
}

export const FALLBACK_MODEL = 'gemini-2.5-flash';

/**
 * Runs an agent definition to the end. Bad inputs or templates throw
 * ValidationError before any model call; once started, every outcome
 * (failures included) is a RunResult and exactly one final_result event.
 */
export async function executeAgent(
  definition: AgentDefinition,
  options: RunOptions = {},
): Promise<RunResult> {
  const startedAtMs = performance.now();
  const runtime = options.runtime ?? (await createRuntime());
  const inputs = validateInputs(definition, options.inputs ?? {}, runtime.validator);
  const protocol = await completionProtocol(definition, runtime.validator);
  const prompt = preparePrompt(definition, inputs, protocol);
  const available =
    options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools ?? []);
  const registry = available.restrictTo(definition.toolConfig.tools);
  const { client, model } = pickModel(definition, options);

  const runId = options.runId ?? randomUUID();
  const execution = options.execution ?? rootExecution(runId, definition.name);
  const events = options.events ?? new RunEvents(runId, options.onEvent);
  const emit = events.sinkFor(execution);
  const state: RunState = {
    version: 1,
    runId,
    agent: definition.name,
    model,
    systemInstruction: prompt.systemInstruction,
    messages: prompt.messages,
    turns: 0,
    activeMs: 0,
    startedAt: new Date().toISOString(),
    emittedVars: {},
    traces: [],
    usage: emptyUsage(),
    alwaysApproved: [],
    nudged: false,
    status: 'running',
  };
  const maxMinutes = definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES;
  const ctx: LoopContext = {
    definition,
    state,
    protocol,
    registry,
    declarations: [...registry.declarations(), ...completionDeclarations(protocol)],
    client,
    generation: generationConfig(definition),
    validator: runtime.validator,
    confirm: options.confirm ?? refuseSideEffects,
    emit,
    deadline: new Deadline(maxMinutes * 60_000),
    callerSignal: options.signal ?? new AbortController().signal,
    toolContext: { runId, execution, workspace: resolve(options.workspace ?? process.cwd()), emit },
    maxTurns: definition.runConfig?.max_turns ?? DEFAULT_MAX_TURNS,
  };

  emit({
    type: 'run_started',
    message: `Running ${definition.displayName ?? definition.name} on ${model}`,
    data: { agent: definition.name, model, inputs, tools: registry.names() },
  });
  let stop: Stop = {
    reason: 'ERROR',
    error: { code: 'internal', message: 'The run did not finish.' },
  };
  try {
    stop = await loop(ctx, options.onStateChange);
    if (isRecoverable(stop) && !ctx.callerSignal.aborted)
      stop = await graceTurn(ctx, stop.reason, options.graceMs ?? GRACE_MS);
  } catch (error) {
    stop = {
      reason: 'ERROR',
      error: { code: 'internal', message: `Unexpected failure: ${String(error)}` },
    };
  } finally {
    state.activeMs = performance.now() - startedAtMs;
    ctx.deadline.dispose();
  }
  const result = finishRun(ctx, stop, startedAtMs);
  emit({
    type: 'final_result',
    message: `${result.terminate_reason}${result.recovered_from ? ` (recovered from ${result.recovered_from})` : ''}`,
    data: { result },
  });
  return result;
}

async function loop(
  ctx: LoopContext,
  onStateChange?: (state: Readonly<RunState>) => void,
): Promise<Stop> {
  const signal = AbortSignal.any([ctx.callerSignal, ctx.deadline.signal]);
  for (;;) {
    if (ctx.callerSignal.aborted) return { reason: 'ABORTED' };
    if (ctx.deadline.expired) return { reason: 'TIMEOUT' };
    if (ctx.state.turns >= ctx.maxTurns) return { reason: 'MAX_TURNS' };
    const stop = await takeTurn(ctx, ctx.declarations, signal);
    onStateChange?.(ctx.state);
    if (stop) return stop;
  }
}

function pickModel(
  definition: AgentDefinition,
  options: RunOptions,
): { client: ModelClient; model: string } {
  const requested = definition.modelConfig?.model ?? options.defaultModel ?? FALLBACK_MODEL;
  if (options.model) return { client: options.model, model: requested };
  if (!options.resolveModel) {
    throw new TypeError('executeAgent needs `model` (a ModelClient) or `resolveModel`.');
  }
  return options.resolveModel(requested);
}

function generationConfig(definition: AgentDefinition): GenerationConfig {
  const m = definition.modelConfig;
  const config: GenerationConfig = {};
  if (m?.temp !== undefined) config.temperature = m.temp;
  if (m?.top_p !== undefined) config.topP = m.top_p;
  if (m?.thinkingBudget !== undefined) config.thinkingBudget = m.thinkingBudget;
  return config;
}
