import path from 'node:path';
import { isRecord } from './describe-value.js';
import { readSettingsFile, serversIn, type SettingsServers } from './settings-file.js';

const LABEL = '~/.claude.json';

export interface ClaudeJsonServers {
  /** Top-level `mcpServers`: the person's servers in every project. */
  user: SettingsServers;
  /** `projects["<project>"].mcpServers`: the person's servers in this project alone. */
  local: SettingsServers;
}

/**
 * Claude Code keeps a person's own MCP servers in `~/.claude.json`: those
 * of every project at the top, those of one project under its absolute
 * path in `projects`. `project` is the folder that holds `.claude/`.
 */
export async function claudeJsonServers(home: string, project: string): Promise<ClaudeJsonServers> {
  const { data, notes } = await readSettingsFile(path.join(home, '.claude.json'), LABEL);
  const projects = isRecord(data) && isRecord(data.projects) ? data.projects : {};
  const key = Object.keys(projects).find((k) => path.resolve(k) === path.resolve(project));
  const local = serversIn(
    key === undefined ? undefined : projects[key],
    `${LABEL} (this project's)`,
  );
  return {
    user: { ...serversIn(data, LABEL), notes },
    local: { ...local, local: Object.keys(local.servers) },
  };
}
