import type { TraceCarrier } from '../../contracts/trace-carrier.js';
import type { Agent, AgentInput, AgentLookup } from '../../contracts/agent.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { ExecutionContext } from '../../events/types.js';
import type { ToolSource } from '../../tools/tool-source.js';
import type { AgentKinds } from '../../contracts/agent-kind.js';
import type { PriceTable } from '../../cost/prices.js';
import type { CostBudget } from '../../cost/cost-budget.js';
import type { ContextWindowTable } from '../../cost/context-windows.js';
import type { Message, ModelClient, ModelResolver } from '../../model/types.js';
import type { RunJournal } from '../../contracts/run-journal.js';
import type { ToolInterceptor } from '../../policy/interceptors.js';
import type { GatePolicy } from '../../policy/tool-gate.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { ConfirmationHandler, ResumeDecision } from '../../contracts/confirmation.js';
import type { RunState } from '../../contracts/run-state.js';
import type { RunEvents } from '../loop/run-events.js';
import type { Runtime } from '../loop/runtime.js';
import { Semaphore } from '../../util/semaphore.js';
import { realClock, type Clock } from '../../util/clock.js';

export const DEFAULT_MAX_DEPTH = 3;
export const DEFAULT_GLOBAL_CONCURRENCY = 8;
export const DEFAULT_PER_PARENT_CONCURRENCY = 4;

/** What every execution of one run tree shares: created once at the root, passed down. */
export interface SpawnServices {
  /** The run tree's clock: event times, deadlines, waits. */
  clock: Clock;
  /** Every tool the process offers; a definition's grant selects from it. */
  pool: ToolRegistry;
  agents?: AgentLookup;
  model?: ModelClient;
  resolveModel?: ModelResolver;
  defaultModel?: string;
  confirm: ConfirmationHandler;
  runtime: Runtime;
  events: RunEvents;
  workspace: string;
  /** Cadre's own state that no tool of the tree may reach. */
  protectedPaths?: readonly string[];
  maxDepth: number;
  /** Bounds subagents running at once across the whole tree (made on the first spawn). */
  global(): Semaphore;
  perParentLimit: number;
  graceMs?: number;
  /**
   * Where the run is kept: the root's journal, or (below a child) one that
   * scopes its calls and leaves the saving to the root.
   */
  journal: RunJournal;
  /** Checks around every tool call of every execution. */
  interceptors?: readonly ToolInterceptor[];
  /** The gate's policy, for every execution of the tree. */
  policy?: GatePolicy;
  /** The tree's MCP servers: started on first use, stopped when the root run ends. */
  mcp: ToolSource;
  /** Kinds of agent registered from above (remote), for every execution of the tree. */
  agentKinds?: AgentKinds;
  /** Model prices, for every execution's cost. */
  prices: PriceTable;
  /** The trace context each execution's outgoing calls carry, by execution id. */
  traceCarrier?: (executionId: string) => TraceCarrier | undefined;
  /** Context windows by model (the project's `.cadre/models.json` on top of the built-in table). */
  contextWindows?: ContextWindowTable;
  /** Starts a child execution: given by the executor, so subagent code never imports it. */
  launch: LaunchChild;
}

/** What every child execution receives from the spawn that starts it. */
export interface ChildOptions {
  runId: string;
  execution: ExecutionContext;
  services: SpawnServices;
  signal: AbortSignal;
  allowNested: boolean;
  timeBudgetMs: number;
  /** The parent's cost budget, which the child's spending counts against. */
  budget?: CostBudget;
  history?: Message[];
  memory?: string;
  state?: Readonly<Record<string, unknown>>;
}

export type ChildRun =
  | {
      kind: 'definition';
      definition: AgentDefinition;
      options: ChildOptions & {
        inputs: Record<string, unknown>;
        /** Go on from a pause instead of starting. */
        resume?: ChildResumeState;
      };
    }
  | {
      kind: 'code';
      agent: Agent;
      input: AgentInput;
      options: ChildOptions & {
        modelName?: string;
        /** A pause decided below it pauses it (a router or workflow child of a run that can pause). */
        canPause?: boolean;
        resume?: ChildResumeState;
      };
    };

/** Where a paused child stopped, and the decisions for its waiting calls. */
export interface ChildResumeState {
  state: RunState;
  decisions: Readonly<Record<string, ResumeDecision>>;
}

/** Starts (or resumes) a child; a definition child that waits for a person throws ChildLaunchPaused. */
export type LaunchChild = (child: ChildRun) => Promise<RunResult>;

export interface SpawnLimits {
  maxDepth?: number;
  globalConcurrency?: number;
  perParentConcurrency?: number;
}

export function createSpawnServices(
  base: Omit<SpawnServices, 'maxDepth' | 'global' | 'perParentLimit' | 'clock'> & {
    clock?: Clock;
  },
  limits: SpawnLimits = {},
): SpawnServices {
  // Most run trees start no subagent: the tree's limit is made when the first one does.
  let global: Semaphore | undefined;
  return {
    ...base,
    clock: base.clock ?? realClock,
    maxDepth: limits.maxDepth ?? DEFAULT_MAX_DEPTH,
    global: () =>
      (global ??= new Semaphore(limits.globalConcurrency ?? DEFAULT_GLOBAL_CONCURRENCY)),
    perParentLimit: limits.perParentConcurrency ?? DEFAULT_PER_PARENT_CONCURRENCY,
  };
}
