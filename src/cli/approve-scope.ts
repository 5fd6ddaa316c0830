import type { AgentLookup } from '../contracts/agent.js';
import type { AgentDefinition } from '../definition/types.js';
import { parseMcpReference, type McpReference } from '../definition/mcp-tool-names.js';
import { TASK_TOOL } from '../runtime/subagents/task-tool.js';

/** What a run tree may call: where `--approve` names are checked. */
export interface ApproveScope {
  /** Pool tools and agents granted somewhere in the tree. */
  local: Set<string>;
  /** MCP grants of the tree (`server__tool`, `server__*`). */
  mcp: McpReference[];
  /** Servers declared for the tree: the project's and its definitions' own. */
  servers: Set<string>;
  /** A code agent is in the tree: its grants are not written down, so the whole pool is possible. */
  open: boolean;
}

/**
 * The tools a run of `root` can reach: its grants, and those of every agent
 * it may start (named agents, `task`'s registry, sub-agents, workflow steps,
 * router domains). A child never gets a tool its caller lacks unless its own
 * definition grants it, so this is the whole set.
 */
export function approveScope(
  root: AgentDefinition,
  agents: AgentLookup,
  projectServers: readonly string[],
  pool: ReadonlySet<string>,
): ApproveScope {
  const scope: ApproveScope = {
    local: new Set(),
    mcp: [],
    servers: new Set(projectServers),
    open: false,
  };
  const seen = new Set<AgentDefinition>();
  const queue: AgentDefinition[] = [root];
  const visitAgent = (name: string): void => {
    const entry = agents.get(name);
    if (entry?.kind === 'definition') queue.push(entry.definition);
    else if (entry?.kind === 'code') scope.open = true;
  };
  for (let definition = queue.shift(); definition; definition = queue.shift()) {
    if (seen.has(definition)) continue;
    seen.add(definition);
    const servers = new Set([...projectServers, ...Object.keys(definition.mcpServers ?? {})]);
    for (const server of servers) scope.servers.add(server);
    for (const name of definition.toolConfig.tools) {
      const reference = pool.has(name) ? undefined : parseMcpReference(name, servers);
      if (reference) {
        scope.mcp.push(reference);
        continue;
      }
      scope.local.add(name);
      if (name === TASK_TOOL) agents.names().forEach(visitAgent);
      else visitAgent(name);
    }
    queue.push(...(definition.subagents ?? []), ...(definition.workflow?.agents ?? []));
    for (const name of [
      ...(definition.router?.domains ?? []),
      ...(definition.router?.synthesizer ? [definition.router.synthesizer] : []),
    ])
      visitAgent(name);
  }
  return scope;
}
