import { ConfigError } from '../../errors/cadre-error.js';
import type { Tool } from '../../tools/types.js';
import { agentTool } from './agent-tool.js';
import type { SpawnServices } from './spawn-services.js';
import { TASK_TOOL, taskTool } from './task-tool.js';
import type { AgentEntry } from '../../contracts/agent.js';
import { toolMadeOnce } from '../loop/made-once.js';

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
    tools.push(madeTool(entry, services));
  }
  if (unknown.length > 0) {
    const available = [...services.pool.names(), TASK_TOOL, ...(services.agents?.names() ?? [])];
    throw new ConfigError(
      `Unknown tool${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: ${available.join(', ')}.`,
    );
  }
  return { tools, withheld };
}

/**
 * An agent offered as a tool, or `task` (entry undefined): the runtime's kept
 * one while what it was made from stays the same, so runs share one tool set.
 */
function madeTool(entry: AgentEntry | undefined, services: SpawnServices): Tool {
  const made = services.runtime.made;
  if (entry) {
    const source = entry.kind === 'definition' ? entry.definition : entry;
    return toolMadeOnce(made, source, '', () => agentTool(entry));
  }
  const agents = services.agents;
  const names = agents?.names() ?? [];
  // `task` lists the agents by name: kept only while the lookup offers the same ones.
  return toolMadeOnce(made, agents ?? services.pool, names.join('\n'), () =>
    taskTool(agents, names),
  );
}
