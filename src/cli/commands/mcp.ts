import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CadreEvent } from '../../events/types.js';
import { cachedResolver } from '../../model/cached-resolver.js';
import type { ModelClient } from '../../model/types.js';
import { resolveModelClient } from '../../model/resolve-model.js';
import { createRuntime } from '../../runtime/loop/runtime.js';
import { agentEnvironment } from '../agent-environment.js';
import { commandPolicy, policyPath } from '../command-policy.js';
import { withProjectTrust } from '../project-trust-flow.js';
import { mcpApprovals } from '../mcp-approvals.js';
import { workspaceFolder } from '../workspace-folder.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle, type Style } from '../style.js';
import type {
  ApproveFlag,
  ModelFlag,
  PolicyFlag,
  TrustProjectFlag,
  WorkspaceFlag,
} from '../options/agent-options.js';

/** `--approve`: tools approved without asking the client, in any spelling a tool list takes ('all' for every tool). */
export type McpCommandOptions = WorkspaceFlag &
  ModelFlag &
  ApproveFlag &
  PolicyFlag &
  TrustProjectFlag;

/** What tests hand the command instead of the process's stdin and stdout (and a real model). */
export interface McpCommandOverrides {
  transport: Transport;
  /** One client for every agent (a scripted model), instead of resolving `--model`. */
  model?: ModelClient;
}

/**
 * `cadre mcp`: the project's agents (found as `cadre run` finds them) as an
 * MCP server on stdio. stdout carries the protocol and nothing else; the
 * log goes to stderr. Ends when the client closes the connection (or on Ctrl-C).
 */
export async function mcpCommand(
  options: McpCommandOptions,
  io: CliIO,
  overrides?: McpCommandOverrides,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const restoreConsole = overrides ? () => {} : consoleToStderr();
  let stopInterrupt: (() => void) | undefined;
  try {
    const workspace = await workspaceFolder(io, options.workspace);
    // The workspace is the project: its agents, MCP servers and model tables, wherever the process started.
    const projectIO: CliIO = { ...io, cwd: workspace };
    const policyFile = policyPath(io, options.policy);
    const { gate, environment } = await withProjectTrust(
      projectIO,
      options.trustProject ? { trustProject: true } : {},
      async (gate) => {
        if (policyFile) await gate.allows(policyFile, 'policy');
        return { gate, environment: await agentEnvironment(projectIO, { gate }) };
      },
    );
    const policy = await commandPolicy(io, options.policy, gate);
    for (const line of environment.diagnostics) io.stderr(`${style.yellow('warning')} ${line}\n`);
    // Checked before serving: a name that matches no tool is exit 2, not a silent no-op.
    const approve = mcpApprovals(options.approve, environment);
    const defaultModel = options.model ?? io.env.CADRE_MODEL;
    // Keyed by the effective model, so every run shares one client per model.
    const resolveOnce = cachedResolver((model: string) =>
      resolveModelClient(model, io.env, { cwd: workspace }),
    );
    const { agentsMcpServer } = await import('../../mcp/server/agents-mcp-server.js');
    const server = agentsMcpServer({
      agents: environment.registry,
      tools: environment.tools,
      mcpServers: environment.mcpServers,
      workspace,
      runtime: await createRuntime(),
      ...(overrides?.model
        ? { model: overrides.model }
        : { resolveModel: (name: string) => resolveOnce(options.model ?? name) }),
      ...(defaultModel ? { defaultModel } : {}),
      policy,
      approve,
      onEvent: runLog(io, style),
    });
    const closed = new Promise<void>((done) => {
      server.onclose = done;
    });
    const stop = () => void server.close();
    stopInterrupt = io.onInterrupt?.(stop);
    let transport = overrides?.transport;
    if (!transport) {
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      transport = new StdioServerTransport();
      // The transport does not notice the client going away: the end of stdin is that.
      process.stdin.once('end', stop);
    }
    await server.connect(transport);
    const names = environment.registry.names();
    io.stderr(
      `Cadre MCP server: ${names.length} agent(s)${names.length ? ` (${names.join(', ')})` : ''}; workspace ${workspace}\n`,
    );
    await closed;
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io.stderr, style);
  } finally {
    stopInterrupt?.();
    restoreConsole();
  }
}

/** One line per run start, approval and end on stderr. */
function runLog(io: CliIO, style: Style): (event: CadreEvent, tool: string) => void {
  return (event, tool) => {
    if (event.depth > 0) return;
    if (event.type === 'run_started') io.stderr(`${style.bold('▶')} ${tool}: ${event.message}\n`);
    else if (event.type === 'approval_required')
      io.stderr(`  ${style.yellow('!')} ${tool}: ${event.message}\n`);
    else if (event.type === 'final_result')
      io.stderr(`${style.bold('■')} ${tool}: ${event.message}\n`);
  };
}

/** stdout belongs to the protocol: anything a library logs goes to stderr while the server runs. */
export function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = console.error.bind(console);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => Object.assign(console, saved);
}
