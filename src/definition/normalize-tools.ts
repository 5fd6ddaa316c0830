import { toServerConfig, type McpServerConfig } from './mcp-server-config.js';
import { errorAt, type PendingIssue } from './issues.js';
import type { RawDefinition } from './raw-definition-schema.js';
import { pickSpelling } from './spelling.js';
import { resolveTools } from './tool-names.js';
import type { AgentDefinition } from './types.js';
import type { ValidateContext } from './validate-context.js';

type Sections = Partial<RawDefinition>;

/**
 * `toolConfig` and `mcpServers`: tool names mapped to Cadre's, patterns
 * kept per tool, MCP servers checked. A server the agent declares but whose
 * tools it does not list is granted whole, as Claude Code and Gemini CLI do.
 */
export function normalizeTools(
  raw: Sections,
  ctx: ValidateContext,
  issues: PendingIssue[],
): Pick<AgentDefinition, 'toolConfig' | 'mcpServers'> {
  const servers = pickSpelling<NonNullable<Sections['mcpServers']>>(
    raw,
    ['mcpServers', 'mcp_servers'],
    [],
    issues,
  );
  const mcpServers: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(servers?.value ?? {})) {
    const checked = toServerConfig(entry);
    if (checked.ok) mcpServers[name] = checked.config;
    else issues.push(errorAt([servers?.key ?? 'mcpServers', name, checked.field], checked.message));
  }
  const section = pickSpelling<NonNullable<Sections['toolConfig']>>(
    raw,
    ['toolConfig', 'tool_config'],
    [],
    issues,
  );
  const resolved = resolveTools(
    section?.value.tools ?? [],
    [section?.key ?? 'toolConfig', 'tools'],
    {
      known: ctx.knownTools,
      aliases: ctx.toolAliases,
      foreign: ctx.foreign,
      dialect: ctx.source.foreign ?? 'cadre',
      isKnownAgent: ctx.isKnownAgent,
      mcpServers: new Set([...ctx.mcpServers, ...Object.keys(mcpServers)]),
      ...(ctx.untrustedHint ? { untrustedHint: ctx.untrustedHint } : {}),
    },
  );
  issues.push(...resolved.issues);
  const tools = resolved.tools;
  for (const server of Object.keys(mcpServers)) {
    if (!tools.some((tool) => tool.startsWith(`${server}__`))) tools.push(`${server}__*`);
  }
  return {
    toolConfig: {
      tools,
      ...(Object.keys(resolved.patterns).length > 0 ? { patterns: resolved.patterns } : {}),
    },
    ...(Object.keys(mcpServers).length > 0 ? { mcpServers } : {}),
  };
}
