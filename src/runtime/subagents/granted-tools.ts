import { ConfigError } from '../../errors/cadre-error.js';
import type { Tool } from '../../tools/types.js';
import { agentTool } from './agent-tool.js';
import type { SpawnServices } from './spawn-services.js';
import { TASK_TOOL, taskTool } from './task-tool.js';

/**
 * The tools of one execution (for its isolated registry): only the granted names, each a
 * pool tool, the `task` tool, or a registered agent offered as a tool, plus
 * `extra` tools resolved beforehand (an agent's MCP tools). When
 * nesting is not allowed, agent tools and `task` are left out.
 */
export function grantedTools(
  granted: readonly string[],
  services: SpawnServices,
  allowNested: boolean,
  extra: readonly Tool[] = [],
): { tools: Tool[]; withheld: string[] } {
  const tools: Tool[] = [...extra];
  const withheld: string[] = [];
  const unknown: string[] = [];
  for (const name of new Set(granted)) {
    const pooled = services.pool.get(name);
    if (pooled) {
      tools.push(pooled);
      continue;
    }
    const entry = name === TASK_TOOL ? undefined : services.agents?.get(name);
    if (name !== TASK_TOOL && !entry) {
      unknown.push(name);
      continue;
    }
    if (!allowNested) {
      withheld.push(name);
      continue;
    }
    tools.push(
      entry ? agentTool(entry) : taskTool(services.agents, services.agents?.names() ?? []),
    );
  }
  if (unknown.length > 0) {
    const available = [...services.pool.names(), TASK_TOOL, ...(services.agents?.names() ?? [])];
    throw new ConfigError(
      `Unknown tool${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: ${available.join(', ')}.`,
    );
  }
  return { tools, withheld };
}
