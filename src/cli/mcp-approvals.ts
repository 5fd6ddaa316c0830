import { ConfigError } from '../errors/cadre-error.js';
import { TASK_TOOL } from '../runtime/subagents/task-tool.js';
import { approveList, unmatchedApprovals, type ApproveList } from './approve-names.js';
import { approveScope, type ApproveScope } from './approve-scope.js';
import type { ApprovalEnvironment } from './checked-approvals.js';

/**
 * `cadre mcp --approve`, read like `cadre run --approve` (every spelling a
 * tool list takes: `Write`, `server__*`, `mcp__server__tool`, globs), over
 * every agent the server offers: a name is fine if some served agent's run
 * could call it. One that matches nothing is a setup error (exit 2) naming
 * it, since a misspelt approval must not pass for a decision.
 */
export function mcpApprovals(
  written: readonly string[],
  environment: ApprovalEnvironment,
): ApproveList {
  const pool = [...environment.tools.map((tool) => tool.name), TASK_TOOL];
  const projectServers = Object.keys(environment.mcpServers);
  const scopes: ApproveScope[] = environment.registry.names().map((name) => {
    const entry = environment.registry.get(name);
    return entry?.kind === 'definition'
      ? approveScope(entry.definition, environment.registry, projectServers, new Set(pool))
      : // A code agent's grants are not written down: the whole pool is possible.
        { local: new Set(), mcp: [], servers: new Set(projectServers), open: true };
  });
  // 'all' always means every tool; with no agents served, nothing else can match.
  const unmatched = written.filter(
    (name) =>
      name !== 'all' &&
      (scopes.length === 0 ||
        scopes.every((scope) => unmatchedApprovals([name], scope, pool).length > 0)),
  );
  if (unmatched.length > 0)
    throw new ConfigError(
      `--approve ${unmatched.map((name) => `"${name}"`).join(', ')}: no tool the served agents can use has ${unmatched.length > 1 ? 'these names' : 'this name'}`,
    );
  return approveList(written, new Set(scopes.flatMap((scope) => [...scope.servers])));
}
