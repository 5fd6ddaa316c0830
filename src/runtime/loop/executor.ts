import type { AgentDefinition } from '../../definition/types.js';
import { ConfigError } from '../../errors/cadre-error.js';
import type { ResumeDecision } from '../../contracts/confirmation.js';
import { previewOf } from '../calls/preview-of.js';
import { visibleText } from '../../util/visible-text.js';
import { finishRun } from './finish.js';
import { graceTurn, GRACE_MS } from './grace-turn.js';
import type { LoopContext } from './loop-context.js';
import { prepareExecution, runtimeFor } from './prepare-execution.js';
import type { ExecutionOptions } from './run-options.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { AwaitedCall, RunState } from '../../contracts/run-state.js';
import { readRunState } from '../../contracts/run-state-version.js';
import { ChildLaunchPaused } from '../subagents/child-pause.js';
import { isRecoverable, type Stop } from './stop.js';
import { takeTurn } from './take-turn.js';
import { callerAborted, turnSignal } from './either-signal.js';
import { costSpent, turnFits } from './cost-ceiling.js';
import { completionDeclarations } from '../completion/completion.js';
import type { LaunchChild } from '../subagents/spawn-services.js';
import type { Agent } from '../../contracts/agent.js';
import type { CodeAgentRun } from './code-agent-runner.js';
import { announceResult, closeServers } from './execution-frame.js';
import { codeAgentInput } from '../prompt/code-agent-input.js';
import { awaitedCalls, checkStart, NEW_RUN, type RunStart } from './run-start.js';
import { opening, openLoop } from './open-loop.js';

export { NEW_RUN, type RunStart } from './run-start.js';
export {
  FALLBACK_MODEL,
  type ExecutionOptions,
  type ModelResolver,
  type RunOptions,
} from './run-options.js';

/** A run either finished, or paused with side-effecting calls waiting for a person. */
export type RunOutcome =
  | { status: 'finished'; result: RunResult }
  | { status: 'paused'; state: RunState; pending: PendingCall[] };

/** A call waiting for a person, anywhere in the run tree (a subagent's id is scoped, with its path). */
export type PendingCall = AwaitedCall;

/** A declarative definition, or an agent written in code. */
export type Runnable = AgentDefinition | Agent;

/**
 * The one way a run goes. Bad inputs or templates throw ValidationError
 * before any model call; once started, every outcome (failures included) is
 * a RunResult with exactly one final_result event, or a pause whose state is
 * plain data to store and later resume (in this process or another).
 *
 * - `new`: starts the run; it pauses when the confirmation handler answers `pause`.
 * - `resume`: approved calls run exactly once (guarded by `claim`), then the
 *   loop goes on with the real results until it finishes or pauses again.
 * - `recover`: a turn checkpointed before its side effects is answered again
 *   call by call; effects go through `claim`, which answers the ones that
 *   already ran (or may have) from their records, so nothing runs twice.
 *
 * A code agent only starts (it has no stored state to resume from).
 */
export async function drive(
  agent: Runnable,
  start: RunStart,
  options: ExecutionOptions = {},
): Promise<RunOutcome> {
  if (isCodeAgent(agent)) return driveCode(agent, start, options);
  const definition = agent;
  // Stored by this version or an older one (upgraded); a newer one is refused.
  if (start.kind !== 'new') start = { ...start, state: await readRunState(start.state) };
  checkStart(start);
  if (runsAsCode(definition, start)) return driveAsCode(definition, start, options);
  const startedAtMs = performance.now();
  const runOptions = start.kind === 'new' ? options : { ...options, runId: start.state.runId };
  const given = runtimeFor(options);
  const runtime = given instanceof Promise ? await given : given;
  const prepared = prepareExecution(runOptions, definition.name, launchChild, runtime);
  try {
    const ctx = await openLoop(definition, start, prepared, options);
    // A resumed run's wall clock counts from its start, waiting included.
    const sinceMs =
      start.kind === 'new'
        ? startedAtMs
        : performance.now() - (prepared.services.clock.now() - Date.parse(ctx.state.startedAt));
    return await runLoop(ctx, sinceMs, options, start);
  } finally {
    const closing = prepared.root ? closeServers(prepared) : undefined;
    if (closing) await closing;
  }
}

/**
 * A code agent pauses when a child of its waits for a person, and resumes by
 * replaying its `execute` from the start: model replies and finished
 * children come from the stored state, so only what was left runs.
 */
async function driveCode(agent: Agent, start: RunStart, options: ExecutionOptions) {
  if (start.kind === 'recover')
    throw new ConfigError(
      `${agent.name} is a code agent: it resumes from a pause, not a checkpoint.`,
    );
  const { driveCodeOutcome } = await import('./code-agent-runner.js');
  const given = start.kind === 'new' ? start.input : undefined;
  const input = given ?? codeAgentInput(options.inputs ?? {}, options);
  if (start.kind === 'new')
    return driveCodeOutcome(agent, input, { ...options, canPause: true }, launchChild);
  const state = await readRunState(start.state);
  return driveCodeOutcome(
    agent,
    input,
    {
      ...options,
      runId: state.runId,
      canPause: true,
      resume: { state, decisions: start.decisions },
    },
    launchChild,
  );
}

/** The finished run's result; a run that may not pause treats a pause as a setup error. */
export function resultOf(outcome: RunOutcome): RunResult {
  if (outcome.status === 'paused') {
    throw new ConfigError(
      'A confirmation handler paused the run: use start and resume to pause and resume a run.',
    );
  }
  return outcome.result;
}

const isCodeAgent = (agent: Runnable): agent is Agent =>
  typeof (agent as Partial<Agent>).execute === 'function';

/** A definition of a registered kind runs as a code agent (a stored one, once it has code state). */
function runsAsCode(definition: AgentDefinition, start: RunStart): boolean {
  // The fields kindNameOf reads: the registry loads only for a definition of a kind.
  const code = definition.kind ?? definition.router ?? definition.workflow ?? definition.remote;
  switch (start.kind) {
    case 'new':
      return code !== undefined;
    case 'resume':
      return code !== undefined && start.state.code !== undefined;
    case 'recover':
      return false;
    default:
      return start satisfies never;
  }
}

/** Runs a definition as the code agent its kind makes; it may wait for a person. */
async function driveAsCode(
  definition: AgentDefinition,
  start: RunStart,
  options: ExecutionOptions,
): Promise<RunOutcome> {
  if (start.kind === 'resume') {
    const run = await codeRunOf(definition, { ...options, runId: start.state.runId });
    return driveCodeThatCanPause(run, {
      state: structuredClone(start.state) as RunState,
      decisions: start.decisions,
    });
  }
  return driveCodeThatCanPause(await codeRunOf(definition, options));
}

/**
 * Launches the run tree's children: here, so subagent code never imports the
 * executor. A paused child throws ChildLaunchPaused: the parent's call pauses
 * with its state, and the run resumes it where it stopped.
 */
const launchChild: LaunchChild = async (child) => {
  if (child.kind === 'code') {
    const { driveCodeAgent } = await import('./code-agent-runner.js');
    return driveCodeAgent(child.agent, child.input, child.options, launchChild);
  }
  const { resume, ...options } = child.options;
  const outcome = await drive(
    child.definition,
    resume ? { kind: 'resume', state: resume.state, decisions: resume.decisions } : NEW_RUN,
    options,
  );
  if (outcome.status === 'paused') throw new ChildLaunchPaused(outcome.state, outcome.pending);
  return outcome.result;
};

/**
 * A definition as the code agent its registered kind makes of it (router,
 * workflow, remote, a caller's own), with the run set up as the kind says.
 */
async function codeRunOf(
  definition: AgentDefinition,
  options: ExecutionOptions,
): Promise<CodeAgentRun> {
  const { kindOf } = await import('./agent-kinds.js');
  const made = await kindOf(definition, options)(definition, {
    agents: options.services?.agents ?? options.agents,
    ...(options.state ? { state: options.state } : {}),
    ...(options.router ? { router: options.router } : {}),
  });
  const cap = definition.runConfig?.max_cost_usd;
  return {
    agent: made.agent,
    input: codeAgentInput(options.inputs ?? {}, options),
    options: {
      ...options,
      ...(made.modelName ? { modelName: made.modelName } : {}),
      ...(made.timeBudgetMs !== undefined
        ? { timeBudgetMs: Math.min(made.timeBudgetMs, options.timeBudgetMs ?? Infinity) }
        : {}),
      ...(cap !== undefined ? { maxCostUsd: cap } : {}),
    },
  };
}

/** Runs a definition's code agent, which may wait for a person (its children's approvals). */
async function driveCodeThatCanPause(
  run: CodeAgentRun,
  resume?: { state: RunState; decisions: Readonly<Record<string, ResumeDecision>> },
): Promise<RunOutcome> {
  const { driveCodeOutcome } = await import('./code-agent-runner.js');
  return driveCodeOutcome(
    run.agent,
    run.input,
    { ...run.options, canPause: true, ...(resume ? { resume } : {}) },
    launchChild,
  );
}

/** What a run that ends without saying why reports (one object for all: a waiting run holds it). */
const UNFINISHED: Stop = Object.freeze({
  reason: 'ERROR',
  error: Object.freeze({ code: 'internal', message: 'The run did not finish.' }),
});

/** Runs the turns, then the grace turn if needed; ends with a result (one final_result) or a pause. */
async function runLoop(
  ctx: LoopContext,
  startedAtMs: number,
  options: ExecutionOptions,
  start: RunStart,
): Promise<RunOutcome> {
  const { state } = ctx;
  const segmentStart = performance.now();
  let stop: Stop = UNFINISHED;
  try {
    const opened = await opening(ctx, start);
    if (opened) stop = opened;
    else {
      // The turns, in this frame: a run waiting on its model holds one suspended frame less.
      const signal = turnSignal(ctx, ctx.deadline.signal);
      let next: Stop | undefined;
      while (!(next = limitReached(ctx))) {
        next = await takeTurn(ctx, ctx.declarations, signal);
        const saving = ctx.journal.save(ctx.state, 'turn_end');
        if (saving) await saving;
        if (next) break;
      }
      stop = next;
    }
    if (isRecoverable(stop) && !callerAborted(ctx)) {
      // No grace turn once the budget is spent, whatever stopped the run: it would be a paid call.
      stop =
        stop.reason === 'MAX_COST' || !turnFits(ctx, completionDeclarations(ctx.protocol))
          ? { reason: 'MAX_COST' }
          : await graceTurn(
              ctx,
              stop.reason,
              options.graceMs ?? options.services?.graceMs ?? GRACE_MS,
            );
    }
  } catch (error) {
    stop = {
      reason: 'ERROR',
      error: { code: 'internal', message: `Unexpected failure: ${String(error)}` },
    };
  } finally {
    state.activeMs += performance.now() - segmentStart;
    ctx.deadline.dispose();
  }
  if (stop.reason === 'PAUSED') {
    state.status = 'paused';
    const pending = pendingCalls(ctx);
    ctx.emit({
      type: 'run_paused',
      message: `Waiting for approval of ${pending.map((p) => p.preview).join('; ')}`,
      data: { pending },
    });
    await ctx.journal.save(state, 'turn_end');
    return { status: 'paused', state, pending };
  }
  const result = finishRun(ctx, stop, startedAtMs);
  announceResult(ctx.emit, result);
  return { status: 'finished', result };
}

function pendingCalls(ctx: LoopContext): PendingCall[] {
  return awaitedCalls(ctx.state, (call) => {
    const tool = ctx.registry.get(call.name);
    return tool ? previewOf(tool, call.args) : visibleText(call.name);
  });
}

/** Why no further turn starts (a limit is reached), or undefined when one may. */
function limitReached(ctx: LoopContext): Stop | undefined {
  if (callerAborted(ctx)) return { reason: 'ABORTED' };
  if (ctx.deadline.expired) return { reason: 'TIMEOUT' };
  if (ctx.state.turns >= ctx.maxTurns) return { reason: 'MAX_TURNS' };
  if (costSpent(ctx)) return { reason: 'MAX_COST' };
  return undefined;
}
