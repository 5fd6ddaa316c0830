import type { Agent, AgentContext, AgentInput } from '../../contracts/agent.js';
import type { AgentEventInput, EventInputOf } from '../../events/types.js';
import type { AgentDefinition, WorkflowConfig } from '../../definition/types.js';
import type { RunResult, ToolTrace } from '../../contracts/run-result.js';
import { inputsFor } from '../subagents/query-inputs.js';
import { EXIT_LOOP } from './exit-loop-tool.js';

/** A loop without `maxIterations` still ends: ADK loops forever, a runtime must not. */
export const DEFAULT_LOOP_ITERATIONS = 10;

/** What one agent of the workflow answered. */
interface Step {
  agent: string;
  result: RunResult;
}

/**
 * ADK's workflow agents: the agents run as children of this one (so
 * depth, concurrency and time limits, events and approvals apply as for
 * any subagent), in order, at once, or in rounds. They share one state:
 * an agent with `outputKey` leaves its answer there for the next ones, and
 * every agent sees what the earlier ones answered.
 */
export class WorkflowAgent implements Agent {
  readonly name: string;
  readonly description: string;

  constructor(
    definition: AgentDefinition,
    private readonly workflow: WorkflowConfig,
    /** State the workflow starts from (an enclosing workflow's). */
    private readonly initialState: Readonly<Record<string, unknown>> = {},
  ) {
    this.name = definition.name;
    this.description = definition.description;
  }

  async *execute(input: AgentInput, ctx: AgentContext): AsyncIterable<AgentEventInput> {
    const state: Record<string, unknown> = { ...this.initialState };
    const steps: Step[] = [];
    const flow = this.workflow;
    switch (flow.kind) {
      case 'sequential':
        for (const agent of flow.agents) yield* this.runOne(agent, input, ctx, state, steps);
        break;
      case 'parallel': {
        yield {
          type: 'workflow_step',
          message: `Running ${flow.agents.length} agents at once`,
          data: {},
        };
        const results = await Promise.all(
          flow.agents.map((agent) => this.spawn(agent, input, ctx, { ...state }, steps)),
        );
        flow.agents.forEach((agent, i) => keep(agent, results[i] as RunResult, state, steps));
        for (const step of steps.slice(-results.length)) yield usageOf(step);
        for (const step of steps.slice(-results.length)) stopUnlessGoal(step, ctx);
        break;
      }
      case 'loop': {
        const rounds = flow.maxIterations ?? DEFAULT_LOOP_ITERATIONS;
        let exited = false;
        for (let round = 1; round <= rounds && !exited; round += 1) {
          yield {
            type: 'workflow_step',
            message: `Round ${round} of at most ${rounds}`,
            data: { round },
          };
          for (const agent of flow.agents) {
            yield* this.runOne(agent, input, ctx, state, steps);
            exited ||= (steps.at(-1)?.result.traces ?? []).some((t) => t.tool === EXIT_LOOP);
            if (exited) break;
          }
        }
        break;
      }
      default:
        flow satisfies never;
    }
    const last = steps.at(-1);
    const content =
      flow.kind === 'parallel'
        ? steps.map((step) => `${step.agent}: ${step.result.final_message}`).join('\n\n')
        : (last?.result.final_message ?? '');
    yield {
      type: 'final_result',
      message: 'Done',
      data: { content, output: { state, answers: steps.map(answerOf) }, traces: traces(steps) },
    };
  }

  private async *runOne(
    agent: AgentDefinition,
    input: AgentInput,
    ctx: AgentContext,
    state: Record<string, unknown>,
    steps: Step[],
  ): AsyncIterable<AgentEventInput> {
    yield { type: 'workflow_step', message: `Running ${agent.name}`, data: { agent: agent.name } };
    const result = await this.spawn(agent, input, ctx, state, steps);
    keep(agent, result, state, steps);
    const step = steps.at(-1) as Step;
    yield usageOf(step);
    stopUnlessGoal(step, ctx);
  }

  private spawn(
    agent: AgentDefinition,
    input: AgentInput,
    ctx: AgentContext,
    state: Readonly<Record<string, unknown>>,
    steps: readonly Step[],
  ): Promise<RunResult> {
    // ADK include_contents: none: no earlier answer reaches the agent (state still does).
    const earlier =
      agent.promptConfig.history === 'none'
        ? []
        : steps.map((step) => `${step.agent} answered:\n${step.result.final_message}`);
    const memory = [input.memory, ...earlier].filter(Boolean).join('\n\n');
    return ctx.spawn({
      target: { kind: 'definition', definition: agent },
      ephemeral: false,
      inputs: inputsFor({ kind: 'definition', definition: agent }, input.prompt),
      state: { ...state },
      ...(memory ? { memory } : {}),
      ...(input.history ? { history: input.history } : {}),
    });
  }
}

/**
 * A step that did not reach its goal ends the workflow: later agents would
 * read state it never wrote. Cancellation ends it as cancelled.
 */
function stopUnlessGoal(step: Step, ctx: AgentContext): void {
  ctx.signal.throwIfAborted();
  const { result } = step;
  if (result.terminate_reason === 'GOAL') return;
  throw new Error(
    `${step.agent} ended with ${result.terminate_reason}${result.error ? `: ${result.error.message}` : ''}`,
  );
}

/**
 * Records a step, and its answer in the state when the agent names an
 * `outputKey`. A nested workflow's state joins this one's, so a Parallel
 * inside a Sequential hands its agents' keys to the agents after it.
 */
function keep(
  agent: AgentDefinition,
  result: RunResult,
  state: Record<string, unknown>,
  steps: Step[],
): void {
  steps.push({ agent: agent.name, result });
  const inner = agent.workflow ? nestedState(result.output) : undefined;
  if (inner && result.terminate_reason === 'GOAL') Object.assign(state, inner);
  if (agent.outputKey && result.terminate_reason === 'GOAL')
    state[agent.outputKey] =
      typeof result.output === 'string' ? result.output : (result.output ?? result.final_message);
}

/** The step's tokens; its cost reaches the workflow's result through the subagent costs. */
function nestedState(output: unknown): Record<string, unknown> | undefined {
  if (typeof output !== 'object' || output === null || !('state' in output)) return undefined;
  const state = (output as { state: unknown }).state;
  return typeof state === 'object' && state !== null
    ? (state as Record<string, unknown>)
    : undefined;
}

function usageOf(step: Step): EventInputOf<'usage'> {
  const { costUsd: _cost, ...tokens } = step.result.usage;
  return { type: 'usage', message: `${step.agent} usage`, data: tokens };
}

const answerOf = (step: Step) => ({
  agent: step.agent,
  terminate_reason: step.result.terminate_reason,
  answer: step.result.final_message,
});

function traces(steps: readonly Step[]): ToolTrace[] {
  return steps.flatMap((step) => step.result.traces);
}
