import type { AgentLookup } from '../contracts/agent.js';
import type { AgentDefinition } from '../definition/types.js';
import { ConfigError } from '../errors/cadre-error.js';
import type { McpServerConfig } from '../definition/mcp-server-config.js';
import { TASK_TOOL } from '../runtime/subagents/task-tool.js';
import type { Tool } from '../tools/types.js';
import { approveList, unmatchedApprovals, type ApproveList } from './approve-names.js';
import { approveScope } from './approve-scope.js';

export interface ApprovalEnvironment {
  registry: AgentLookup;
  tools: readonly Tool[];
  mcpServers: Readonly<Record<string, McpServerConfig>>;
}

/**
 * `--approve` for a run of `definition`, read like a tool list. A name that
 * matches no tool the run can use is a setup error (exit 2) naming it:
 * a misspelt approval must not pass for a decision.
 */
export function checkedApprovals(
  written: readonly string[],
  definition: AgentDefinition,
  environment: ApprovalEnvironment,
): ApproveList {
  const pool = [...environment.tools.map((tool) => tool.name), TASK_TOOL];
  const scope = approveScope(
    definition,
    environment.registry,
    Object.keys(environment.mcpServers),
    new Set(pool),
  );
  const unmatched = unmatchedApprovals(written, scope, pool);
  if (unmatched.length > 0) {
    const usable = [...scope.local, ...scope.mcp.map((g) => `${g.server}__${g.tool}`)];
    throw new ConfigError(
      `--approve ${unmatched.map((name) => `"${name}"`).join(', ')}: no tool ${definition.name} can use has ${unmatched.length > 1 ? 'these names' : 'this name'} (it can use: ${usable.join(', ') || 'no tools'})`,
    );
  }
  return approveList(written, scope.servers);
}
