import type { McpServerConfig } from './mcp-server-config.js';
import type { JsonSchema, Message } from '../model/types.js';

/** The spec's input argument (000 §3 inputConfig). */
export interface InputArgument {
  description?: string;
  /** 'string' | 'number' | 'integer' | 'boolean' | 'string[]' | 'number[]' | 'object' | 'array'. */
  type: string;
  required?: boolean;
}

export interface InputConfig {
  /** The spec's named map... */
  inputs?: Record<string, InputArgument>;
  /** ...or a JSON Schema of the inputs object. Exactly one is set. */
  inputSchema?: JsonSchema;
}

/** A Zod-like schema: anything with safeParse (checked structurally so `zod` stays optional here). */
export interface ZodLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}

/**
 * `origin` says where a schema came from: `registry:<name>` (a name
 * registered in code), `file:<path>` (a file next to the definition) or
 * absent (written inline).
 */
export type OutputSchema =
  | { kind: 'json_schema'; schema: JsonSchema; origin?: string }
  | {
      kind: 'zod';
      schema: ZodLike;
      origin?: string;
      /** The Zod schema as JSON Schema (for tool declarations), when it could be converted. */
      jsonSchema?: JsonSchema;
    };

export interface OutputConfig {
  /** Argument name of complete_task (000). */
  outputName?: string;
  description?: string;
  schema?: OutputSchema;
  /** Named outputs to emit with emit_value (003): name → description. */
  outputs?: Record<string, string>;
}

/**
 * How a prompt's placeholders are written, which depends on the tool the
 * file was written for: `dollar` fills `${name}` (Cadre, Gemini CLI),
 * `braces` fills ADK's `{name}` / `{name?}` from inputs and state, `none`
 * fills nothing (Claude Code runs a subagent's body unchanged).
 */
export type PlaceholderStyle = 'dollar' | 'braces' | 'none';

export interface PromptConfig {
  /** First user message; placeholders are filled from inputs. */
  query?: string;
  systemPrompt?: string;
  initialMessages?: Message[];
  /** Absent: the style of the file's dialect (`source.foreign`), `dollar` for Cadre's own. */
  placeholders?: PlaceholderStyle;
  /** Put before the system prompt with no placeholder filled (ADK `static_instruction`). */
  staticSystemPrompt?: string;
  /** `none`: the agent sees no earlier conversation, only its own query (ADK `include_contents: none`). */
  history?: 'none';
}

export interface ModelConfig {
  /** Model id, optionally provider-prefixed (`openai:gpt-4.1`); absent or `inherit` = the run's default. */
  model?: string;
  temp?: number;
  top_p?: number;
  thinkingBudget?: number;
  /** Cap on the tokens of one model answer (ADK `generate_content_config.max_output_tokens`). */
  maxOutputTokens?: number;
  /** Top-k sampling (ADK `generate_content_config.top_k`); OpenAI has no such setting. */
  topK?: number;
  /** The answer stops before any of these (ADK `generate_content_config.stop_sequences`). */
  stopSequences?: string[];
}

export interface RunConfig {
  max_time_minutes?: number;
  max_turns?: number;
  /** Dollars the run may spend, subagents included; once spent, no further model call: MAX_COST. */
  max_cost_usd?: number;
  /** Where this agent's subagents run: `threads` gives each a worker thread (default `async`). */
  execution_mode?: 'async' | 'threads';
  compaction?: CompactionConfig;
}

/** When and how earlier turns are summarised as a conversation nears the model's context window. */
export interface CompactionConfig {
  /** false turns compaction off. */
  enabled?: boolean;
  /** Share of the context window (by the last call's reported input tokens) that triggers it. */
  threshold?: number;
  /** Newest model turns kept verbatim. */
  keep_turns?: number;
  /** Overrides the model table's context window. */
  context_window?: number;
  /** Longer tool results are trimmed, with a marker, in the turns being summarised. */
  max_tool_result_chars?: number;
}

export type DefinitionFormat = 'yaml' | 'json' | 'markdown' | 'module' | 'object';

/** Where a definition came from, for error messages and `cadre agents`. */
export interface DefinitionSource {
  file?: string;
  format: DefinitionFormat;
  /** Claude Code / Gemini CLI / ADK files: unknown tools warn instead of failing. */
  foreign?: 'claude-code' | 'gemini-cli' | 'adk';
}

/**
 * A loaded, validated, normalised agent definition: every spelling the
 * loaders accept (camelCase, snake_case, Markdown frontmatter, ADK) becomes
 * this one shape. Plain data apart from `processOutput` and Zod schemas.
 */
export interface AgentDefinition<TOutput = unknown> {
  name: string;
  displayName?: string;
  description: string;
  inputConfig?: InputConfig;
  outputConfig?: OutputConfig;
  processOutput?: (output: TOutput) => string;
  promptConfig: PromptConfig;
  modelConfig?: ModelConfig;
  /**
   * Granted tool names (already mapped to Cadre names; MCP tools as
   * `server__tool` or `server__*`); empty = no tools. `patterns` narrows a
   * tool to calls inside them (`shell` → `git status:*`, from `Bash(git status:*)`).
   */
  toolConfig: { tools: string[]; patterns?: Record<string, string[]> };
  /** MCP servers of this agent by name (stdio or remote); their tools are named `server__tool`. */
  mcpServers?: Record<string, McpServerConfig>;
  runConfig?: RunConfig;
  /** Example requests (a router shows them next to the description). */
  examples?: string[];
  /**
   * A kind registered by the run (`RunOptions.adapters.agentKinds`) that this
   * definition runs as; the built-in kinds are marked by their own field below.
   */
  kind?: string;
  /** Present for `kind: router`: route to domain agents in parallel, then synthesize. */
  router?: RouterConfig;
  /** Present for workflow agents (ADK's Sequential, Parallel and Loop agents): no model of its own. */
  workflow?: WorkflowConfig;
  /** Present for remote agents (Gemini CLI `kind: remote`, ADK `RemoteA2aAgent`): the run asks it over A2A. */
  remote?: RemoteAgentConfig;
  /** Agents this one may hand work to, offered as tools by name (ADK `sub_agents` of an LlmAgent). */
  subagents?: AgentDefinition[];
  /** The run's answer is stored in the workflow's state under this key (ADK `output_key`). */
  outputKey?: string;
  /** What a rejected approval does: tell the model (default) or fail the run. */
  onReject?: 'continue' | 'fail';
  source?: DefinitionSource;
}

/**
 * Runs `agents` in order, all at once, or in order again and again, sharing
 * one state: each agent's `outputKey` answer is there for the agents after
 * it (ADK's `{key}` placeholders read it). A loop stops after
 * `maxIterations` rounds or when an agent calls `exit_loop`.
 */
export type WorkflowConfig =
  | { kind: 'sequential'; agents: AgentDefinition[] }
  | { kind: 'parallel'; agents: AgentDefinition[] }
  | { kind: 'loop'; agents: AgentDefinition[]; maxIterations?: number };

/** An agent served elsewhere, described by its A2A agent card. */
export interface RemoteAgentConfig {
  agentCardUrl: string;
  /** Headers each call sends (to the card's origin only), read when the call is made. */
  auth?: RemoteAuth;
  /** Why the auth the file asks for is not sent (its file is not trusted): calls are refused with this. */
  authRefused?: string;
}

/** Where a secret is read from when a call is made: an environment variable, or a file holding it alone. */
export type SecretSource = { env: string } | { file: string };

/** One header a remote call sends: `prefix` + the secret, or Basic credentials. */
export interface RemoteHeader {
  name: string;
  prefix?: string;
  value:
    | { kind: 'secret'; source: SecretSource }
    | { kind: 'basic'; username: SecretSource; password: SecretSource };
}

export interface RemoteAuth {
  headers: RemoteHeader[];
}

export interface RouterConfig {
  /** Domain agents by name. */
  domains: string[];
  /** An agent that merges the domain answers; absent = the built-in synthesizer prompt. */
  synthesizer?: string;
  domainTimeoutSecs?: number;
}

export const DEFAULT_MAX_TURNS = 30;
export const DEFAULT_MAX_TIME_MINUTES = 10;
