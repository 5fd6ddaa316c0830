import type { ContextWindowTable } from '../../cost/context-windows.js';
import type { AgentRegistry } from '../../agents/agent-registry.js';
import type { ConversationResolver } from '../../model/conversation-resolver.js';
import type { Runtime } from '../../runtime/loop/runtime.js';
import type { GatePolicy } from '../../policy/tool-gate.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { Store } from '../../store/types.js';
import type { Tool } from '../../tools/types.js';
import type { McpServerConfig } from '../../definition/mcp-server-config.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import type { PriceTable } from '../../cost/prices.js';
import type { DefinitionSnapshot } from '../../trajectory/types.js';
import type { WorkspacePlan } from './run-workspace.js';

/** What every request of the server core shares: built once at start. */
export interface ServerContext {
  store: Store;
  agents: AgentRegistry;
  /** Every tool agents may be granted (file tools, gmail_send, calendar_event_create). */
  tools: readonly Tool[];
  /** The project's MCP servers (`.cadre/mcp.json`); each run tree starts the ones it needs. */
  mcpServers: Readonly<Record<string, McpServerConfig>>;
  /** Model prices for runs' costs. */
  prices: PriceTable;
  /** A client for a model string in a run's thread: a scripted model plays its script once per thread. */
  resolveModel: ConversationResolver;
  /** The model when the agent names none (`cadre serve --model`, CADRE_MODEL). */
  defaultModel?: string;
  runtime: Runtime;
  /** The agent used when a request names none. */
  defaultAgent: AgentDefinition;
  /** Rules, trust and the side-effect switch; the gate adds each user's grants. */
  policy: Pick<GatePolicy, 'rules' | 'sideEffects' | 'trust'>;
  /** Where each run's tools work: derived from the run's user (and thread), never from a request. */
  workspaces: WorkspacePlan;
  /** The folder where finished recorded runs keep their trajectories (`<runId>.json`). */
  trajectories: string;
  /** Context windows by model: the built-in table with the project's `.cadre/models.json` on top. */
  contextWindows: ContextWindowTable;
  /**
   * The server's own files that no tool may reach, besides each workspace's `.cadre/`: its
   * whole folder and the base of the users' workspaces (masked around the run's own workspace).
   */
  protectedPaths?: readonly string[];
  /** The agent a request names (the default without one), prepared once per name. */
  pickAgent: (name: string | undefined) => Promise<PickedAgent>;
  /** Traces of the runs this process drives (OTEL_EXPORTER_OTLP_ENDPOINT); absent when off. */
  telemetry?: Telemetry;
}

/** Chat threads stop a runaway tool loop at this many turns; an agent's own max_turns wins. */
export const SERVER_DEFAULT_MAX_TURNS = 3;
/** How much of a thread's history goes to the model. */
export const HISTORY_MESSAGES = 20;

/** An agent ready to run: its definition, the snapshot stored with its runs, and that snapshot's hash. */
export interface PickedAgent {
  definition: AgentDefinition;
  snapshot: DefinitionSnapshot;
  hash: string;
}
