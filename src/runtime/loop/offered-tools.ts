import type { SchemaValidator } from '../completion/schema-validator.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { Tool } from '../../tools/types.js';
import { parseMcpReference, type McpReference } from '../../definition/mcp-tool-names.js';
import type { SourcedTools, ToolSource } from '../../tools/tool-source.js';

/** What a definition's grants offer: names to take from the pool or the agents, and ready tools. */
export interface OfferedTools {
  /** Pool tools, `task` and agents, by name. */
  local: string[];
  /** The definition's own tools (`builtins`): made once per runtime, so runs may share them. */
  own: Tool[];
  /** Its MCP tools, with the warnings to say: they belong to the run tree's connections. */
  mcp: SourcedTools;
}

export interface OfferedToolsOptions {
  pool: ToolRegistry;
  hub: ToolSource;
  validator: SchemaValidator;
  /** Tools the definition brings with it for some of its local grants (exit_loop, its sub-agents). */
  builtins: (granted: readonly string[]) => Tool[];
  signal: AbortSignal | undefined;
}

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

/**
 * Splits a definition's grants and starts (or reuses) the MCP servers they
 * need. Without MCP grants (most runs) nothing is awaited.
 */
export function offeredTools(
  definition: AgentDefinition,
  options: OfferedToolsOptions,
): OfferedTools | Promise<OfferedTools> {
  const grants = splitGrants(definition, options.pool, options.hub.projectServers());
  const builtins = options.builtins(grants.local);
  const local =
    builtins.length === 0
      ? grants.local
      : grants.local.filter((name) => !builtins.some((tool) => tool.name === name));
  if (grants.mcp.length === 0) return { local, own: builtins, mcp: { tools: [], warnings: [] } };
  return options.hub
    .toolsFor(
      grants.mcp,
      definition.mcpServers,
      (schema) => void options.validator.forJsonSchema(schema),
      options.signal ?? new AbortController().signal,
    )
    .then((mcp) => ({ local, own: builtins, mcp }));
}
