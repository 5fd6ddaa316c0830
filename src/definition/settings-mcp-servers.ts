import path from 'node:path';
import { claudeJsonServers } from './claude-json-servers.js';
import { isRecord } from './describe-value.js';
import {
  mergeServers,
  NO_SERVERS,
  readSettingsFile,
  serversIn,
  type SettingsServers,
} from './settings-file.js';
import type { SourceNote } from './translating-mapper.js';
import type { DefinitionSource } from './types.js';
import type { FileGate } from '../contracts/file-gate.js';

export type { SettingsServers } from './settings-file.js';

/** Each dialect's project folder and the settings file in it that lists MCP servers. */
const SETTINGS: Readonly<Record<NonNullable<DefinitionSource['foreign']>, string | undefined>> = {
  'gemini-cli': '.gemini',
  'claude-code': '.claude',
  adk: undefined,
};

async function readSettings(file: string, label: string): Promise<SettingsServers> {
  const { data, notes } = await readSettingsFile(file, label);
  return { ...serversIn(data, label), notes };
}

/**
 * The `mcpServers` of `<project>/.gemini/settings.json` (Gemini CLI) or
 * `<project>/.claude/settings.json` (Claude Code) for an agent file inside
 * that project's `.gemini/` or `.claude/` folder: the tools treat those
 * servers as every agent's. With `home` ($HOME), the person's own servers
 * too, in the order each tool gives them precedence: Gemini CLI's
 * `~/.gemini/settings.json` under the project's; Claude Code's
 * `~/.claude.json`, its servers of every project under the project's and
 * its servers of this project alone (local scope) over them.
 */
export async function settingsMcpServers(
  file: string,
  dialect: NonNullable<DefinitionSource['foreign']>,
  /** Undefined: the user-level files are not read. */
  home: string | undefined,
  /** Workspace trust: the project's settings file is read only when it allows it. */
  gate?: FileGate,
): Promise<SettingsServers> {
  const folder = SETTINGS[dialect];
  if (!folder) return NO_SERVERS;
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf(folder);
  if (at < 0) return NO_SERVERS;
  const project = [...parts.slice(0, at + 1), 'settings.json'].join(path.sep);
  const label = `${folder}/settings.json`;
  const shared =
    gate && !(await gate.allows(project, 'agent settings'))
      ? {
          ...NO_SERVERS,
          notes: [
            {
              path: [],
              message: `${label} is not trusted; its MCP servers are not read (cadre trust)`,
              severity: 'warning' as const,
            },
          ],
        }
      : await readSettings(project, label);
  if (home === undefined) return shared;
  if (dialect === 'claude-code') {
    const own = await claudeJsonServers(home, parts.slice(0, at).join(path.sep) || path.sep);
    return mergeServers([own.user, shared, own.local]);
  }
  // An agent in the user's own ~/.gemini/agents has that file as its project settings already.
  const user = path.join(home, folder, 'settings.json');
  if (path.resolve(user) === path.resolve(project)) return shared;
  return mergeServers([await readSettings(user, `~/${folder}/settings.json`), shared]);
}

/** Gemini CLI agent files write server keys in snake_case: `http_url` is `httpUrl`. */
export function camelServerKeys(entry: unknown): unknown {
  if (!isRecord(entry) || entry.http_url === undefined) return entry;
  const { http_url: httpUrl, ...rest } = entry;
  return rest.httpUrl === undefined ? { ...rest, httpUrl } : entry;
}

/**
 * Whether a tool list written in an agent file reaches `server`: omitted
 * or `*` (every tool), or a name of one of its tools (`mcp_<server>_…`
 * Gemini CLI, `mcp__<server>__…` Claude Code, `<server>__…` Cadre).
 */
function grantsServer(tools: unknown, server: string): boolean {
  if (tools === undefined || tools === null) return true;
  const names =
    typeof tools === 'string'
      ? tools.split(',').map((name) => name.trim())
      : Array.isArray(tools)
        ? tools.map((name) => String(name).trim())
        : [];
  return names.some(
    (name) =>
      name === '*' ||
      name.startsWith(`mcp_${server}_`) ||
      name === `mcp__${server}` ||
      name.startsWith(`mcp__${server}__`) ||
      name.startsWith(`${server}__`),
  );
}

/**
 * Adds the settings file's servers to a foreign agent's raw definition:
 * the agent's own entry of the same name wins, a server the project
 * already gives every agent (`LoadOptions.mcpServers`) is not started
 * twice (unless a local-scope entry replaces it for this project), and a
 * tool list that names none of a server's tools leaves it out.
 */
export function withSettingsServers(
  raw: Record<string, unknown>,
  found: SettingsServers,
  tools: unknown,
  projectServers: readonly string[],
  /** Servers the agent names in `mcpServers: [name]`: granted whatever its tool list says. */
  named: readonly string[] = [],
): SourceNote[] {
  const notes = [...found.notes];
  const own = isRecord(raw.mcpServers) ? raw.mcpServers : {};
  const added: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(found.servers)) {
    // The project's shared server stands, unless the person gave this project their own.
    const shadowed = projectServers.includes(name) && !found.local.includes(name);
    if (name in own || shadowed || !(named.includes(name) || grantsServer(tools, name))) continue;
    const usable =
      isRecord(entry) &&
      (typeof entry.command === 'string' ||
        typeof entry.url === 'string' ||
        typeof entry.httpUrl === 'string');
    if (usable) added[name] = entry;
    else
      notes.push({
        path: [],
        message: `MCP server "${name}" of ${found.from[name] ?? 'the settings'} has no command, url or httpUrl; left out`,
        severity: 'warning',
      });
  }
  if (Object.keys(added).length > 0) raw.mcpServers = { ...added, ...own };
  return notes;
}
