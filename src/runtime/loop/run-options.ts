import type { AgentLookup } from '../../contracts/agent.js';
import type { AgentKinds } from '../../contracts/agent-kind.js';
import type { ToolSourceFactory } from '../../tools/tool-source.js';
import type { McpServerConfig } from '../../definition/mcp-server-config.js';
import type { PriceTable } from '../../cost/prices.js';
import type { CostBudget } from '../../cost/cost-budget.js';
import type { ContextWindowTable } from '../../cost/context-windows.js';
import type { CadreEvent, ExecutionContext } from '../../events/types.js';
import type { Message, ModelClient, ModelResolver } from '../../model/types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { Clock } from '../../util/clock.js';
import type { Tool } from '../../tools/types.js';
import type { ConfirmationHandler } from '../../contracts/confirmation.js';
import type { TraceCarrier } from '../../contracts/trace-carrier.js';
import type { RunJournal } from '../../contracts/run-journal.js';
import type { ToolInterceptor } from '../../policy/interceptors.js';
import type { GatePolicy } from '../../policy/tool-gate.js';
import type { RunEvents } from './run-events.js';
import type { Runtime } from './runtime.js';
import type { SpawnLimits, SpawnServices } from '../subagents/spawn-services.js';
import type { RouterOptions } from '../../contracts/router-options.js';

export type { ModelResolver };

export type { RouterOptions };

export const FALLBACK_MODEL = 'gemini-2.5-flash';

/** What a caller chooses for a run: the public options of `run`, `start`, `resume` and `stream`. */
/**
 * The runtime's ports, filled from above: it imports neither the MCP client
 * nor the A2A client, and runs without them (no MCP tools, no remote agents).
 */
export interface RunAdapters {
  /** Kinds of declarative agent that run as code (`remote`, a caller's own); they join the built-in ones. */
  agentKinds?: AgentKinds;
  /** Where a run tree's MCP tools come from; one source per tree. */
  toolSource?: ToolSourceFactory;
}

export interface RunOptions {
  inputs?: Record<string, unknown>;
  /** Earlier conversation turns, placed before the query (chat threads, `runAgent` chat_history). */
  history?: Message[];
  /**
   * Values earlier agents of a workflow stored with `output_key`, which ADK
   * `{var}` placeholders read (inputs win on a name clash).
   */
  state?: Readonly<Record<string, unknown>>;
  /** Extra context for the agent (agent-format `memory`), added to its instructions. */
  memory?: string;
  /** How a `kind: router` definition routes (agent-format config keys). */
  router?: RouterOptions;
  /** A client to use whatever the definition says (tests, replay). */
  model?: ModelClient;
  /** Resolves the definition's model string (or `defaultModel`) to a client. */
  resolveModel?: ModelResolver;
  /** Used when the definition names no model. */
  defaultModel?: string;
  /** Tools the definition may be granted from (default: none besides completion tools). */
  tools?: ToolRegistry | readonly Tool[];
  /** MCP servers of the project (`.cadre/mcp.json`); each starts when an agent first needs it. */
  mcpServers?: Readonly<Record<string, McpServerConfig>>;
  /** What the layers above plug in (MCP tools, remote agents); cadre's run verbs pass them. */
  adapters?: RunAdapters;
  /** Model prices for cost (default: the built-in table; the CLI and server add `.cadre/prices.json`). */
  prices?: PriceTable;
  /** Context windows by model id (default: the built-in table; the CLI and server add `.cadre/models.json`). */
  contextWindows?: ContextWindowTable;
  /**
   * History messages kept verbatim (a server thread's window): once the
   * history holds half as many again, the older ones are summarised at the
   * first turn into one note.
   */
  historyWindow?: number;
  /** Agents a definition may call by name (as tools, or through `task`). */
  agents?: AgentLookup;
  /** Depth cap and concurrency limits for subagents. */
  limits?: SpawnLimits;
  /** false: this execution may not start subagents. */
  allowNested?: boolean;
  workspace?: string;
  /** Cadre's state outside the workspace's `.cadre/` (database, keys): out of every tool's reach. */
  protectedPaths?: readonly string[];
  signal?: AbortSignal;
  /** Decides side-effecting calls; the default refuses them (fail closed). */
  confirm?: ConfirmationHandler;
  onEvent?: (event: CadreEvent) => void;
  /** The trace context an execution's outgoing calls carry (W3C `traceparent`), by execution id. */
  traceCarrier?: (executionId: string) => TraceCarrier | undefined;
  runId?: string;
  runtime?: Runtime;
  /** Checks around every tool call: every one runs, deny beats confirm, observers see failures too. */
  interceptors?: readonly ToolInterceptor[];
  /**
   * What the gate applies to every call, read-only ones included: rules,
   * trust, the side-effect switch, grants. Default: side effects ask `confirm`.
   */
  policy?: GatePolicy;
}

/**
 * How a run joins a run tree or a store: set by the executor for subagents
 * and by the run service for durable runs; not part of the public API.
 */
export interface ExecutionOptions extends RunOptions {
  /**
   * The whole opening conversation, used as it is instead of history + query
   * (a fork: recorded turns kept, then the model goes on from there).
   */
  conversation?: Message[];
  /** Caps the time budget below the definition's max_time_minutes (a child gets its parent's remaining time). */
  timeBudgetMs?: number;
  /** A resumed run's events continue the stored sequence from here. */
  afterEventSeq?: number;
  /** The caller's place in the agent tree (subagents); a root run gets its own. */
  execution?: ExecutionContext;
  /** Shared event stamping for a tree of executions. */
  events?: RunEvents;
  /** Shared by a whole run tree; children receive their root's. */
  services?: SpawnServices;
  /** The parent's cost budget: a child's own budget is opened under it, so the tree shares one cap. */
  budget?: CostBudget;
  graceMs?: number;
  /** The run tree's clock (default the real one): event times, deadlines, waits. */
  clock?: Clock;
  /**
   * Where the run is kept (a store's journal, for durable runs): its state
   * before side effects and after turns, and the run-once claim of each side
   * effect. Default: memory (one process, nothing to take over). The person's
   * decision stays with `confirm`: it is not durability.
   */
  journal?: RunJournal;
}
