import { emptyUsage, type GenerationConfig } from '../model/types.js';
import {
  DEFAULT_MAX_TIME_MINUTES,
  DEFAULT_MAX_TURNS,
  type AgentDefinition,
} from '../spec/types.js';
import { completionDeclarations, completionProtocol } from './completion.js';
import { Deadline } from './deadline.js';
import { finishRun } from './finish.js';
import { graceTurn, GRACE_MS } from './grace-turn.js';
import { validateInputs } from './inputs.js';
import type { LoopContext } from './loop-context.js';
import { pickModel, prepareExecution } from './prepare-execution.js';
import { preparePrompt } from './prompts.js';
import type { RunOptions } from './run-options.js';
import type { RunResult } from './run-result.js';
import type { RunState } from './run-state.js';
import { Semaphore } from './semaphore.js';
import { isRecoverable, type Stop } from './stop.js';
import { grantedTools } from './subagents/granted-tools.js';
import { spawnChild, type SpawnParent } from './subagents/spawn-child.js';
import { takeTurn } from './take-turn.js';
import { runRouter } from './router/run-router.js';

export { FALLBACK_MODEL, type ModelResolver, type RunOptions } from './run-options.js';

/**
 * Runs an agent definition to the end. Bad inputs or templates throw
 * ValidationError before any model call; once started, every outcome
 * (failures included) is a RunResult and exactly one final_result event.
 */
export async function executeAgent(
  definition: AgentDefinition,
  options: RunOptions = {},
): Promise<RunResult> {
  if (definition.router) return runRouter({ ...definition, router: definition.router }, options);
  const startedAtMs = performance.now();
  const { runId, execution, emit, services } = await prepareExecution(options, definition.name);
  const validator = services.runtime.validator;
  const inputs = validateInputs(definition, options.inputs ?? {}, validator);
  const protocol = await completionProtocol(definition, validator);
  const prompt = preparePrompt(definition, inputs, protocol, options.history, options.memory);
  const allowNested = options.allowNested ?? true;
  const { registry, withheld } = grantedTools(definition.toolConfig.tools, services, allowNested);
  const { client, model } = pickModel(definition.modelConfig?.model, services);

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
  const ownBudgetMs = (definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES) * 60_000;
  const deadline = new Deadline(Math.min(ownBudgetMs, options.timeBudgetMs ?? Infinity));
  const callerSignal = options.signal ?? new AbortController().signal;
  const parent: SpawnParent = {
    runId,
    execution,
    grantedNames: registry.names(),
    remainingMs: () => deadline.remaining(),
    perParent: new Semaphore(services.perParentLimit),
    emit,
  };
  const ctx: LoopContext = {
    definition,
    state,
    protocol,
    registry,
    declarations: [...registry.declarations(), ...completionDeclarations(protocol)],
    client,
    generation: generationConfig(definition),
    validator,
    confirm: services.confirm,
    emit,
    deadline,
    callerSignal,
    toolContext: {
      runId,
      execution,
      workspace: services.workspace,
      emit,
      // A child stops on cancellation, not on the parent's deadline: its own budget is the
      // parent's remaining time, so it can still use its grace turn to report.
      ...(allowNested
        ? { spawn: (request) => spawnChild(services, parent, request, callerSignal) }
        : {}),
    },
    maxTurns: definition.runConfig?.max_turns ?? DEFAULT_MAX_TURNS,
  };

  emit({
    type: 'run_started',
    message: `Running ${definition.displayName ?? definition.name} on ${model}`,
    data: { agent: definition.name, model, inputs, tools: registry.names() },
  });
  if (withheld.length > 0) {
    emit({
      type: 'warning',
      message: `Nested subagents are not allowed here; withheld: ${withheld.join(', ')}`,
      data: { withheld },
    });
  }
  let stop: Stop = {
    reason: 'ERROR',
    error: { code: 'internal', message: 'The run did not finish.' },
  };
  try {
    stop = await loop(ctx, options.onStateChange);
    if (isRecoverable(stop) && !ctx.callerSignal.aborted) {
      stop = await graceTurn(ctx, stop.reason, services.graceMs ?? GRACE_MS);
    }
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

function generationConfig(definition: AgentDefinition): GenerationConfig {
  const m = definition.modelConfig;
  const config: GenerationConfig = {};
  if (m?.temp !== undefined) config.temperature = m.temp;
  if (m?.top_p !== undefined) config.topP = m.top_p;
  if (m?.thinkingBudget !== undefined) config.thinkingBudget = m.thinkingBudget;
  return config;
}
