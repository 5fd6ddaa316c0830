import { describeValue, isRecord } from './describe-value.js';
import type { IssuePath } from './issues.js';
import type { PathRule, SourceNote } from './translating-mapper.js';

/** ADK's class names for a toolset of an MCP server (`MCPToolset` is the deprecated one). */
export const MCP_TOOLSETS = new Set(['MCPToolset', 'McpToolset']);
/** ADK's agent-as-tool; loaded with the sub-agents by adk-tree.ts. */
export const AGENT_TOOL = 'AgentTool';

/** `server_params` (stdio) or the params themselves → Cadre's server entry. */
function stdioServer(params: unknown): Record<string, unknown> | undefined {
  if (!isRecord(params) || typeof params.command !== 'string') return undefined;
  return {
    command: params.command,
    ...(params.args !== undefined ? { args: params.args } : {}),
    ...(params.env !== undefined && params.env !== null ? { env: params.env } : {}),
    ...(typeof params.cwd === 'string' ? { cwd: params.cwd } : {}),
  };
}

/**
 * A remote server's params → Cadre's entry: `url`, `headers`, and ADK's
 * `sse_read_timeout` (seconds: how long a reply may take) as the per-request
 * limit. ADK's `timeout` bounds only the connecting, which Cadre has no field for.
 */
function remoteServer(params: unknown, type: 'http' | 'sse'): Record<string, unknown> | undefined {
  if (!isRecord(params) || typeof params.url !== 'string') return undefined;
  const readTimeout = params.sse_read_timeout;
  return {
    type,
    url: params.url,
    ...(isRecord(params.headers) ? { headers: params.headers } : {}),
    ...(typeof readTimeout === 'number' && readTimeout > 0
      ? { timeout: Math.round(readTimeout * 1000) }
      : {}),
  };
}

type Connection =
  | { ok: true; server: Record<string, unknown>; key: string }
  | { ok: false; key: string | undefined; message: string };

/** Which of ADK's exclusive connection fields the toolset uses, as a Cadre server. */
function connectionOf(args: Record<string, unknown>): Connection {
  const given = [
    'stdio_server_params',
    'stdio_connection_params',
    'sse_connection_params',
    'streamable_http_connection_params',
  ].filter((key) => args[key] !== undefined && args[key] !== null);
  const key = given[0];
  if (given.length !== 1)
    return {
      ok: false,
      key,
      message:
        'MCPToolset needs exactly one of stdio_server_params, stdio_connection_params, sse_connection_params, streamable_http_connection_params (ADK refuses it too); left out',
    };
  const value = args[key as string];
  const server =
    key === 'stdio_server_params'
      ? stdioServer(value)
      : key === 'stdio_connection_params'
        ? stdioServer(isRecord(value) ? value.server_params : undefined)
        : remoteServer(value, key === 'sse_connection_params' ? 'sse' : 'http');
  return server
    ? { ok: true, server, key: key as string }
    : {
        ok: false,
        key,
        message: `${key as string} needs ${key?.startsWith('stdio') ? 'a command' : 'a url'}, got ${describeValue(value)}; left out`,
      };
}

/**
 * ADK `MCPToolset` entries of `tools` as the agent's MCP servers: stdio
 * (`stdio_server_params`, `stdio_connection_params.server_params`),
 * streamable HTTP (`streamable_http_connection_params`) or HTTP+SSE
 * (`sse_connection_params`, as `.mcp.json`'s `type: sse`). The server is
 * named by `tool_name_prefix` (as ADK prefixes its tools), else `toolset`,
 * `toolset_2`…; `tool_filter` grants those tools only, else every tool. Stdio
 * servers then wait for workspace trust like any agent file's.
 */
export function adkMcpToolsets(
  entries: readonly { item: Record<string, unknown>; index: number }[],
  raw: Record<string, unknown>,
  rules: PathRule[],
  notes: SourceNote[],
): void {
  const servers: Record<string, unknown> = {};
  const tools = (raw.toolConfig as { tools: string[] }).tools;
  for (const { item, index } of entries) {
    const at: IssuePath = ['tools', index];
    const args = isRecord(item.args) ? item.args : {};
    const connection = connectionOf(args);
    if (!connection.ok) {
      notes.push({
        path: connection.key ? [...at, 'args', connection.key] : [...at, 'name'],
        message: connection.message,
        severity: 'warning',
      });
      continue;
    }
    const prefix = typeof args.tool_name_prefix === 'string' ? args.tool_name_prefix.trim() : '';
    let name = prefix || 'toolset';
    for (let n = 2; name in servers; n++) name = `${prefix || 'toolset'}_${n}`;
    servers[name] = connection.server;
    rules.push([
      ['mcpServers', name],
      [...at, 'args', connection.key],
    ]);
    const filter = Array.isArray(args.tool_filter)
      ? args.tool_filter.filter((tool): tool is string => typeof tool === 'string')
      : [];
    const grants = filter.length > 0 ? filter.map((tool) => `${name}__${tool}`) : [`${name}__*`];
    grants.forEach((grant, n) => {
      rules.push([
        ['toolConfig', 'tools', tools.length],
        filter.length > 0 ? [...at, 'args', 'tool_filter', n] : [...at, 'name'],
      ]);
      tools.push(grant);
    });
  }
  if (Object.keys(servers).length > 0) raw.mcpServers = servers;
}
