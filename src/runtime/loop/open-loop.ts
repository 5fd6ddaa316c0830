import { emptyUsage, type ModelClient } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { RunState } from '../../contracts/run-state.js';
import { offeredTools } from './offered-tools.js';
import { isoTime } from '../../util/iso-time.js';
import { validateInputs } from '../prompt/inputs.js';
import { preparePrompt } from '../prompt/prompts.js';
import { definitionTools } from '../subagents/definition-tools.js';
import { buildLoopContext } from './build-loop-context.js';
import { completionOf } from './made-once.js';
import { turnSignal } from './either-signal.js';
import type { LoopContext } from './loop-context.js';
import { SILENT } from './run-events.js';
import { pickModel, type PreparedExecution } from './prepare-execution.js';
import type { ExecutionOptions } from './run-options.js';
import type { RunStart } from './run-start.js';
import type { Stop } from './stop.js';
import { answerCalls } from './take-turn.js';

/** The run's state and loop, announced: `run_started`, or `run_resumed` for a stored run. */
export async function openLoop(
  definition: AgentDefinition,
  start: RunStart,
  prepared: PreparedExecution,
  options: ExecutionOptions,
): Promise<LoopContext> {
  const { services, emit } = prepared;
  const validator = services.runtime.validator;
  const fresh = start.kind === 'new';
  const inputs = fresh ? validateInputs(definition, options.inputs ?? {}, validator) : undefined;
  const made = completionOf(definition, validator, services.runtime.made);
  const completion = made instanceof Promise ? await made : made;
  const { protocol } = completion;
  let state: RunState;
  let client: ModelClient;
  if (fresh) {
    const prompt = preparePrompt(
      definition,
      inputs ?? {},
      protocol,
      options.history,
      options.memory,
      options.state,
    );
    const picked = pickModel(definition.modelConfig?.model, services);
    client = picked.client;
    state = {
      version: 1,
      runId: prepared.runId,
      agent: definition.name,
      model: picked.model,
      systemInstruction: prompt.systemInstruction,
      messages: options.conversation ? structuredClone(options.conversation) : prompt.messages,
      turns: 0,
      activeMs: 0,
      startedAt: isoTime(services.clock.now()),
      emittedVars: {},
      traces: [],
      usage: emptyUsage(),
      alwaysApproved: [],
      nudged: false,
      status: 'running',
    };
  } else {
    state = structuredClone(start.state) as RunState;
    state.status = 'running';
    client = pickModel(state.model, services).client;
  }
  const offering = offeredTools(definition, {
    pool: services.pool,
    hub: services.mcp,
    validator,
    builtins: (granted) => definitionTools(definition, granted, services.runtime.made),
    signal: options.signal,
  });
  const offered = offering instanceof Promise ? await offering : offering;
  const ctx = buildLoopContext({
    definition,
    state,
    completion,
    client,
    prepared,
    options,
    offered,
  });
  // Nobody listening: the announcement is not built (its data lists every tool).
  if (emit !== SILENT) announce(ctx, definition, start, inputs);
  // A client that knows its model's window (a local model) tells it before the first request,
  // which is then fitted to it instead of refused. Unknown when it cannot say: its first call
  // reports the same failure.
  if (client.contextWindow) {
    const told = await client.contextWindow(options.signal).catch(() => undefined);
    if (told !== undefined && told > 0) ctx.learnedWindow = told;
  }
  return ctx;
}

/** `run_started`, or `run_resumed` for a stored run. */
function announce(
  ctx: LoopContext,
  definition: AgentDefinition,
  start: RunStart,
  inputs: Record<string, unknown> | undefined,
): void {
  switch (start.kind) {
    case 'new':
      ctx.emit({
        type: 'run_started',
        message: `Running ${definition.displayName ?? definition.name} on ${ctx.state.model}`,
        data: {
          agent: definition.name,
          model: ctx.state.model,
          inputs,
          tools: ctx.registry.names(),
        },
      });
      break;
    case 'resume':
      ctx.emit({
        type: 'run_resumed',
        message: `Resuming ${definition.name}`,
        data: { decisions: Object.keys(start.decisions).length },
      });
      break;
    case 'recover':
      ctx.emit({
        type: 'run_resumed',
        message: `Taking over ${definition.name}`,
        data: { recovered: true },
      });
      break;
    default:
      start satisfies never;
  }
}

/** What a start does before the loop's turns: settle the decided calls, or answer a checkpointed turn. */
export async function opening(ctx: LoopContext, start: RunStart): Promise<Stop | undefined> {
  switch (start.kind) {
    case 'new':
      return undefined;
    case 'resume': {
      const { settlePendingTurn } = await import('./settle-pending.js');
      const stop = await settlePendingTurn(ctx, start.decisions);
      // Saved right away: the side effects just ran and must not be asked for again.
      await ctx.journal.save(ctx.state, 'turn_end');
      return stop;
    }
    case 'recover': {
      const pending = ctx.state.pendingTurn;
      if (!pending) return undefined;
      delete ctx.state.pendingTurn;
      const signal = turnSignal(ctx, ctx.deadline.signal);
      const stop = await answerCalls(ctx, pending.calls, ctx.offered, signal, false);
      await ctx.journal.save(ctx.state, 'turn_end');
      return stop;
    }
    default:
      return start satisfies never;
  }
}
