import type { McpReference } from './mcp-tool-names.js';

const PREFIX = 'mcp_';

/**
 * Gemini CLI names an MCP tool `mcp_<server>_<tool>`. Server names may hold
 * `_` themselves, so the name is read against the declared servers and the
 * longest one that prefixes it wins; `mcp_<server>_*` is every tool. Returns
 * undefined when no declared server fits (Claude's `mcp__…` is not this form).
 */
export function parseGeminiMcpName(
  name: string,
  servers: ReadonlySet<string>,
): McpReference | undefined {
  const trimmed = name.trim();
  if (!trimmed.startsWith(PREFIX) || trimmed.startsWith(`${PREFIX}_`)) return undefined;
  const rest = trimmed.slice(PREFIX.length);
  let server: string | undefined;
  for (const candidate of servers) {
    const fits = rest.startsWith(`${candidate}_`) && rest.length > candidate.length + 1;
    if (fits && candidate.length > (server?.length ?? 0)) server = candidate;
  }
  return server ? { server, tool: rest.slice(server.length + 1) } : undefined;
}
