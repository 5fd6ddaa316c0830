import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AgentRegistry } from '../../agents/agent-registry.js';
import { builtinAgentEntries } from '../../agents/builtin/index.js';
import { SERVER_ASSISTANT } from '../../agents/default-assistant.js';
import { discoverAgents } from '../../agents/discover-agents.js';
import { loadActiveAgent } from '../../compat/active-agent.js';
import { loadContextWindows } from '../../cost/context-windows.js';
import { loadPrices } from '../../cost/price-file.js';
import type { McpServerConfig } from '../../definition/mcp-server-config.js';
import { servesModelIn } from '../../definition/model-names.js';
import type { AgentDefinition } from '../../definition/types.js';
import { loadProjectMcpConfig } from '../../mcp/project-mcp-config.js';
import { loadGatePolicy } from '../../policy/policy-config.js';
import { TASK_TOOL } from '../../runtime/subagents/task-tool.js';
import { createCalendarEventTool } from '../../tools/calendar/calendar-event-create.js';
import { availableTools } from '../../tools/builtin/index.js';
import { discoverProjectTools } from '../../tools/discover-tool-files.js';
import { createGmailSendTool } from '../../tools/mail/gmail-send.js';
import { toolAliasesOf } from '../../tools/tool-aliases.js';
import type { Tool } from '../../tools/types.js';
import { openProjectTrust, type ProjectTrust } from '../../trust/project-trust.js';
import { refusalLines, untrustedHint } from '../../trust/trust-report.js';
import type { RunServiceOptions } from './run-service-options.js';
import type { WorkspacePlan } from './run-workspace.js';
import type { ServerContext } from './server-context.js';

/** What the server reads from its project once, at start. */
export type ProjectSetup = Pick<
  ServerContext,
  | 'agents'
  | 'tools'
  | 'mcpServers'
  | 'prices'
  | 'contextWindows'
  | 'defaultAgent'
  | 'policy'
  | 'workspaces'
>;

type Gate = ProjectTrust['gate'];

/**
 * Trust, tools, MCP servers, prices, agents and policy, in the order the
 * trust gate must see them: what it refused before the agents load is the
 * agents' hint, and everything it refused is reported once, at the end.
 */
export async function loadProjectSetup(options: RunServiceOptions): Promise<ProjectSetup> {
  const { cwd, env } = options;
  const workspaces = await workspacePlan(options.workspace, cwd);
  const trust = await serverTrust(options, workspaces);
  const gate = trust?.gate;
  const tools = await projectTools(options, gate);
  const { servers: mcpServers } = await loadProjectMcpConfig(cwd, gate);
  const prices = await loadPrices(cwd, env, gate);
  const contextWindows = await loadContextWindows(cwd, gate);
  const { agents, defaultAgent } = await projectAgents(options, tools, mcpServers, gate);
  if (options.policyFile ?? env.CADRE_POLICY)
    await gate?.allows(resolve(cwd, options.policyFile ?? env.CADRE_POLICY ?? ''), 'policy');
  if (trust)
    for (const line of refusalLines(trust.gate.refused(), trust.notes)) options.onWarning?.(line);
  // Checked before anything runs: a bad file or an unknown CADRE_TRUST is a setup error.
  const policy = await loadGatePolicy({
    ...(options.policyFile ? { file: options.policyFile } : {}),
    env,
    cwd,
    ...(gate ? { gate } : {}),
  });
  return { agents, tools, mcpServers, prices, contextWindows, defaultAgent, policy, workspaces };
}

/** Workspace trust, when asked for: nothing loads from inside the agents' workspace. */
function serverTrust(
  options: RunServiceOptions,
  workspaces: WorkspacePlan,
): Promise<ProjectTrust> | undefined {
  if (!options.trust) return undefined;
  // Agents write anywhere under this folder: no project code is loaded from inside it.
  const workspace = workspaces.kind === 'shared' ? workspaces.folder : workspaces.base;
  return openProjectTrust({
    cwd: options.cwd,
    env: options.env,
    ...(options.trust.oneRun ? { oneRun: true } : {}),
    denied: [
      {
        folder: workspace,
        why: `it lies inside the agents' workspace (${workspace}), where they can write it; keep project code outside it`,
      },
    ],
  });
}

/** The built-in tools, then the project's code tools (as the CLI finds them); a broken one is skipped. */
async function projectTools(options: RunServiceOptions, gate: Gate | undefined): Promise<Tool[]> {
  const { cwd, env } = options;
  const builtinTools = [
    ...availableTools(env),
    createGmailSendTool({ env }),
    createCalendarEventTool({ env }),
  ];
  const code = await discoverProjectTools({
    cwd,
    reserved: builtinTools.map((t) => t.name),
    ...(gate ? { gate } : {}),
    ...(env.HOME ? { home: env.HOME } : {}),
  });
  for (const warning of code.warnings) options.onWarning?.(warning);
  return [...builtinTools, ...code.tools.map((entry) => entry.tool)];
}

/** The project's agents, and the one a request naming none gets (ACTIVE_AGENT_PATH, else the assistant). */
async function projectAgents(
  options: RunServiceOptions,
  tools: readonly Tool[],
  mcpServers: Readonly<Record<string, McpServerConfig>>,
  gate: Gate | undefined,
): Promise<{ agents: AgentRegistry; defaultAgent: AgentDefinition }> {
  const { cwd, env } = options;
  const hint = gate && untrustedHint(gate.refused());
  const trusting = { ...(gate ? { gate } : {}), ...(hint ? { untrustedHint: hint } : {}) };
  const toolAliases = toolAliasesOf(tools);
  const { registry } = await discoverAgents({
    cwd,
    knownTools: [...tools.map((t) => t.name), TASK_TOOL],
    load: {
      mcpServers: Object.keys(mcpServers),
      toolAliases,
      servesModel: servesModelIn(env),
      // The operator's own ~/.gemini/settings.json and ~/.claude.json stay theirs, not every user's.
      userSettings: false,
      ...trusting,
    },
    builtins: builtinAgentEntries(),
    ...(options.agentDirs ? { folders: options.agentDirs } : {}),
    ...(env.HOME ? { home: env.HOME } : {}),
  });
  const names = new Set(registry.names());
  const active = env.ACTIVE_AGENT_PATH
    ? await loadActiveAgent(env.ACTIVE_AGENT_PATH, {
        cwd,
        knownTools: tools.map((t) => t.name),
        toolAliases,
        mcpServers: Object.keys(mcpServers),
        servesModel: servesModelIn(env),
        userSettings: false,
        isKnownAgent: (n) => names.has(n),
        ...trusting,
      })
    : undefined;
  return {
    agents: registry,
    defaultAgent: active?.kind === 'definition' ? active.definition : SERVER_ASSISTANT,
  };
}

/** The plan with real paths: tools compare paths after resolving links. */
async function workspacePlan(
  option: string | WorkspacePlan | undefined,
  cwd: string,
): Promise<WorkspacePlan> {
  if (option === undefined || typeof option === 'string')
    return { kind: 'shared', folder: await realpath(option ?? cwd) };
  switch (option.kind) {
    case 'shared':
      return { kind: 'shared', folder: await realpath(option.folder) };
    case 'per-user':
      return { ...option, base: await realpath(option.base) };
    default:
      return option satisfies never;
  }
}
