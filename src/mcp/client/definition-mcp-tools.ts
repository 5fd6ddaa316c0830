import type { SchemaValidator } from '../../runtime/completion/schema-validator.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import { parseMcpReference, type McpReference } from '../mcp-tool-names.js';
import type { McpHub, McpTools } from './mcp-hub.js';

export interface SplitGrants {
  /** Names the tool pool, `task` or the agents answer. */
  local: string[];
  mcp: McpReference[];
}

/** A definition's grants: pool tools and agents first, then MCP references (`server__tool`, `server__*`). */
export function splitGrants(
  definition: AgentDefinition,
  pool: ToolRegistry,
  projectServers: readonly string[],
): SplitGrants {
  // Built only when a grant is not a pool tool: most runs grant pool tools alone.
  let servers: Set<string> | undefined;
  const local: string[] = [];
  const mcp: McpReference[] = [];
  for (const name of definition.toolConfig.tools) {
    const reference = pool.get(name)
      ? undefined
      : parseMcpReference(
          name,
          (servers ??= new Set([...projectServers, ...Object.keys(definition.mcpServers ?? {})])),
        );
    if (reference) mcp.push(reference);
    else local.push(name);
  }
  return { local, mcp };
}

/** Starts (or reuses) the servers a definition's MCP grants need and returns their tools. */
export async function definitionMcpTools(
  definition: AgentDefinition,
  grants: readonly McpReference[],
  hub: McpHub,
  validator: SchemaValidator,
  signal: AbortSignal,
): Promise<McpTools> {
  if (grants.length === 0) return { tools: [], warnings: [] };
  return hub.toolsFor(
    grants,
    definition.mcpServers,
    (schema) => void validator.forJsonSchema(schema),
    signal,
  );
}
