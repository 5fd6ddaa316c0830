import type { GatePolicy } from '../policy/tool-gate.js';
import { builtinAgentEntries } from '../agents/builtin/index.js';
import { nameOf } from '../agents/agent-registry.js';
import { discoverAgents } from '../agents/discover-agents.js';
import type { CadreEvent } from '../events/types.js';
import type { ModelClient } from '../model/types.js';
import type { ConfirmationHandler } from '../contracts/confirmation.js';
import { run } from '../agents/run-verbs.js';
import { inputsFor } from '../runtime/subagents/query-inputs.js';
import type { ModelResolver } from '../runtime/loop/run-options.js';
import type { ToolTrace } from '../contracts/run-result.js';
import { TASK_TOOL } from '../runtime/subagents/task-tool.js';
import type { AgentDefinition } from '../definition/types.js';
import { builtinTools } from '../tools/builtin/index.js';
import { cachedResolver } from '../model/cached-resolver.js';
import { resolveModelClient } from '../model/resolve-model.js';
import type { Tool } from '../tools/types.js';
import { discoverToolFiles } from '../tools/discover-tool-files.js';
import { resolve } from 'node:path';
import { loadActiveAgent, type ActiveAgent } from './active-agent.js';
import { resolveConfig, type AgentFormatConfig } from './agent-format-config.js';
import { parseChatHistory } from './chat-history.js';
import { defaultAssistant } from '../agents/default-assistant.js';

export interface RunAgentOptions {
  /** The agent to run; default `ACTIVE_AGENT_PATH`, else a built-in assistant. */
  agent?: AgentDefinition | string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  model?: ModelClient;
  resolveModel?: ModelResolver;
  defaultModel?: string;
  tools?: readonly Tool[];
  confirm?: ConfirmationHandler;
  /** The gate's rules, trust and side-effect switch, for every call of every domain. */
  policy?: GatePolicy;
  signal?: AbortSignal;
  onEvent?: (event: CadreEvent) => void;
}

/** The agent-format interface's result: the three required fields plus extras. */
export interface AgentFormatResult {
  content: string;
  response_time_secs: number;
  traces: ToolTrace[];
  /** Tool names in order of first use, without repeats. */
  called_tools: string[];
  [extra: string]: unknown;
}

/**
 * `run_agent(prompt, chat_history, memory, config)` from the agent-format
 * seed. Every call is its own run: traces live in the result, so concurrent
 * calls never mix them. `response_time_secs` is wall clock.
 */
export async function runAgent(
  prompt: string,
  chatHistory?: string,
  memory?: string,
  config: AgentFormatConfig = {},
  options: RunAgentOptions = {},
): Promise<AgentFormatResult> {
  const started = performance.now();
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const resolved = resolveConfig(config, env);
  // Tool modules under tool_root join the tools every agent may be granted.
  const rootTools = resolved.toolRoot
    ? await discoverToolFiles(resolve(cwd, resolved.toolRoot), options.signal)
    : [];
  const tools = [...(options.tools ?? builtinTools), ...rootTools];
  const knownTools = [...tools.map((t) => t.name), TASK_TOOL];
  const { registry } = await discoverAgents({
    cwd,
    knownTools,
    builtins: builtinAgentEntries(),
    ...(resolved.toolRoot ? { folders: [resolved.toolRoot] } : {}),
  });
  // The default assistant routes over the project's own agents; built-ins stay callable by name.
  const projectAgents = registry
    .list()
    .filter((a) => a.origin !== 'builtin')
    .map((a) => nameOf(a.entry));
  const active = await pickAgent(options, env, cwd, knownTools, registry.names(), projectAgents);
  if (active.kind === 'function') {
    const raw = await active.run(prompt, chatHistory, memory, config);
    return normalizeForeign(raw, started);
  }
  // Without a client or resolver, models are picked from the environment as on the command
  // line (GEMINI_API_KEY, OPENAI_API_KEY, CADRE_MODEL…), one client per model.
  const resolveModel =
    options.resolveModel ??
    (options.model
      ? undefined
      : cachedResolver((model) => resolveModelClient(model, env, { cwd })));
  const defaultModel = options.defaultModel ?? env.CADRE_MODEL;
  const result = await run(active.definition, {
    // An agent with structured inputs gets the prompt as its single input (or as JSON of them).
    inputs: inputsFor({ kind: 'definition', definition: active.definition }, prompt),
    history: parseChatHistory(chatHistory),
    ...(memory?.trim() ? { memory } : {}),
    router: resolved.router,
    agents: registry,
    tools,
    workspace: cwd,
    ...(resolveModel ? { resolveModel } : {}),
    ...(defaultModel ? { defaultModel } : {}),
    ...pick(options, ['model', 'confirm', 'policy', 'signal', 'onEvent']),
  });
  return {
    content: result.content,
    response_time_secs: (performance.now() - started) / 1000,
    traces: result.traces,
    called_tools: firstOccurrences(result.traces.map((t) => t.tool)),
    run_id: result.run_id,
    agent: result.agent,
    terminate_reason: result.terminate_reason,
    output: result.output,
    usage: result.usage,
  };
}

/** The snake_case name agent-format callers expect. */
export const run_agent = runAgent;

async function pickAgent(
  options: RunAgentOptions,
  env: NodeJS.ProcessEnv,
  cwd: string,
  knownTools: string[],
  agentNames: string[],
  projectAgents: string[],
): Promise<ActiveAgent> {
  if (typeof options.agent === 'object') return { kind: 'definition', definition: options.agent };
  const path = options.agent ?? env.ACTIVE_AGENT_PATH;
  const names = new Set(agentNames);
  if (path) return loadActiveAgent(path, { cwd, knownTools, isKnownAgent: (n) => names.has(n) });
  return { kind: 'definition', definition: defaultAssistant(projectAgents) };
}

function normalizeForeign(raw: Record<string, unknown>, started: number): AgentFormatResult {
  const traces = Array.isArray(raw.traces) ? (raw.traces as ToolTrace[]) : [];
  return {
    ...raw,
    content: typeof raw.content === 'string' ? raw.content : String(raw.content ?? ''),
    // Wall clock measured here: a module's own figure may add up component times.
    response_time_secs: (performance.now() - started) / 1000,
    traces,
    called_tools: firstOccurrences(traces.map((t) => t.tool)),
  };
}

function firstOccurrences(names: readonly string[]): string[] {
  return [...new Set(names)];
}

function pick<T extends object, K extends keyof T>(
  source: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
