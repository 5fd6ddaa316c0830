import type { AgentRegistry } from '../agents/agent-registry.js';
import { builtinAgentEntries } from '../agents/builtin/index.js';
import { discoverAgents, type SkippedFile } from '../agents/discover-agents.js';
import type { AgentEntry } from '../contracts/agent.js';
import type { ValidationIssue } from '../errors/validation-error.js';
import type { McpServerConfig } from '../definition/mcp-server-config.js';
import { loadPrices } from '../cost/price-file.js';
import { servesModelIn } from '../definition/model-names.js';
import type { PriceTable } from '../cost/prices.js';
import { loadContextWindows, type ContextWindowTable } from '../cost/context-windows.js';
import { loadProjectMcpConfig } from '../mcp/project-mcp-config.js';
import { toolAliasesOf } from '../tools/tool-aliases.js';
import type { LoadOptions } from '../definition/load-definition.js';
import { TASK_TOOL } from '../runtime/subagents/task-tool.js';
import { availableTools } from '../tools/builtin/index.js';
import { discoverProjectTools, type CodeTool } from '../tools/discover-tool-files.js';
import type { Tool } from '../tools/types.js';
import type { CliIO } from './cli-io.js';
import type { ProjectGate } from '../trust/project-gate.js';
import { untrustedHint } from '../trust/trust-report.js';
import { withProjectTrust } from './project-trust-flow.js';

export interface AgentEnvironment {
  registry: AgentRegistry;
  /** Options that let a definition name tools, `task` and the discovered agents. */
  loadOptions: LoadOptions & { cwd: string };
  diagnostics: string[];
  /** Definition files left out (invalid, or code that threw on import), each naming the file. */
  skipped: string[];
  /** The definition files among them, absolute, with their issues. */
  skippedFiles: SkippedFile[];
  /** Code tool modules left out (they threw on import, or took a built-in's name). */
  toolWarnings: string[];
  /** Non-fatal issues of the discovered definitions (tools left out, model fallbacks). */
  warnings: ValidationIssue[];
  /** Tools runs may be granted: the built-ins, what the environment configures (web_search) and the code tools. */
  tools: Tool[];
  /** Code tools from `tools/`, `.cadre/tools` and `~/.cadre/tools`, with their files. */
  codeTools: CodeTool[];
  /** Model prices: the built-in table with `.cadre/prices.json` or CADRE_PRICES on top. */
  prices: PriceTable;
  /** Context windows: the built-in table with `.cadre/models.json` on top. */
  contextWindows: ContextWindowTable;
  /** The project's MCP servers (`.cadre/mcp.json` or `.mcp.json`), for RunOptions.mcpServers. */
  mcpServers: Record<string, McpServerConfig>;
}

export interface EnvironmentOptions {
  /** The file being run or checked: the data definitions beside it are read, its sibling code never imported. */
  besides?: string;
  /** Folders the user named (`cadre validate DIR`): read whole, code modules included. */
  folders?: readonly string[];
  builtins?: readonly AgentEntry[];
  /** Tool names definitions may use besides this command's own (`cadre validate`: the server's). */
  extraTools?: readonly string[];
  /**
   * The project's trust gate, when the command opened it (to ask on a
   * terminal first). Absent: opened here, and what it left out is named on stderr.
   */
  gate?: ProjectGate;
  /** `--trust-project`: the project's code and configuration load for this run. */
  trustProject?: boolean;
}

/**
 * The agents a command can see: project `.cadre/agents` and `./agents`,
 * the user's `~/.cadre/agents`, built-ins, the YAML / JSON / Markdown
 * definitions beside the file being run (so they can call each other), and
 * the project's MCP servers.
 */
export async function agentEnvironment(
  io: CliIO,
  options: EnvironmentOptions = {},
): Promise<AgentEnvironment> {
  if (options.gate) return loadEnvironment(io, options, options.gate);
  return withProjectTrust(io, options.trustProject ? { trustProject: true } : {}, (gate) =>
    loadEnvironment(io, options, gate),
  );
}

async function loadEnvironment(
  io: CliIO,
  options: EnvironmentOptions,
  gate: ProjectGate,
): Promise<AgentEnvironment> {
  const builtins = availableTools(io.env);
  // Code tools come only from declared folders, like code agents; a broken one is a warning.
  const code = await discoverProjectTools({
    cwd: io.cwd,
    reserved: builtins.map((tool) => tool.name),
    gate,
    ...(io.env.HOME ? { home: io.env.HOME } : {}),
  });
  const tools = [...builtins, ...code.tools.map((entry) => entry.tool)];
  const knownTools = [...tools.map((tool) => tool.name), TASK_TOOL, ...(options.extraTools ?? [])];
  const { servers: mcpServers } = await loadProjectMcpConfig(io.cwd, gate);
  const prices = await loadPrices(io.cwd, io.env, gate);
  const contextWindows = await loadContextWindows(io.cwd, gate);
  // An agent that names a tool or server left out as untrusted is told which file it was.
  const hint = untrustedHint(gate.refused());
  const trusting = { gate, ...(hint ? { untrustedHint: hint } : {}) };
  const toolAliases = toolAliasesOf(tools);
  const { registry, diagnostics, skipped, skippedFiles, warnings } = await discoverAgents({
    cwd: io.cwd,
    knownTools,
    load: {
      mcpServers: Object.keys(mcpServers),
      toolAliases,
      servesModel: servesModelIn(io.env),
      ...trusting,
    },
    ...(io.env.HOME ? { home: io.env.HOME } : {}),
    ...(options.besides ? { besides: options.besides } : {}),
    ...(options.folders ? { folders: options.folders } : {}),
    builtins: options.builtins ?? builtinAgentEntries(),
  });
  const names = new Set(registry.names());
  return {
    registry,
    loadOptions: {
      knownTools,
      toolAliases,
      mcpServers: Object.keys(mcpServers),
      servesModel: servesModelIn(io.env),
      isKnownAgent: (name) => names.has(name),
      cwd: io.cwd,
      ...trusting,
      ...(io.env.HOME ? { home: io.env.HOME } : {}),
    },
    diagnostics: [...code.warnings, ...diagnostics],
    skipped: [...code.warnings, ...skipped],
    skippedFiles,
    toolWarnings: code.warnings,
    warnings,
    tools,
    codeTools: code.tools,
    prices,
    contextWindows,
    mcpServers,
  };
}
