import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isRecord } from './describe-value.js';
import type { SourceNote } from './translating-mapper.js';
import type { DefinitionSource } from './types.js';

/** Each dialect's project folder and the settings file in it that lists MCP servers. */
const SETTINGS: Readonly<Record<NonNullable<DefinitionSource['foreign']>, string | undefined>> = {
  'gemini-cli': '.gemini',
  'claude-code': '.claude',
  adk: undefined,
};

export interface SettingsServers {
  /** Raw server entries by name, as the settings files write them. */
  servers: Record<string, unknown>;
  /** Which file each server came from, as a person would name it. */
  from: Record<string, string>;
  notes: SourceNote[];
}

const NONE: SettingsServers = { servers: {}, from: {}, notes: [] };

/**
 * The `mcpServers` of one settings file, named `label` in notes. No file, no
 * servers; a file that is not JSON is a warning, not a refusal (the agent
 * still loads, without them).
 */
async function readSettings(file: string, label: string): Promise<SettingsServers> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return NONE;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      ...NONE,
      notes: [
        {
          path: [],
          message: `${label} is not valid JSON (${(error as Error).message}); its MCP servers are not read`,
          severity: 'warning',
        },
      ],
    };
  }
  const servers = isRecord(data) && isRecord(data.mcpServers) ? { ...data.mcpServers } : {};
  return {
    servers,
    from: Object.fromEntries(Object.keys(servers).map((n) => [n, label])),
    notes: [],
  };
}

/**
 * The `mcpServers` of `<project>/.gemini/settings.json` (Gemini CLI) or
 * `<project>/.claude/settings.json` (Claude Code) for an agent file inside
 * that project's `.gemini/` or `.claude/` folder: the tools treat those
 * servers as every agent's. Gemini CLI also reads the user's
 * `~/.gemini/settings.json` (`home`: $HOME), under the project's: on a name
 * both give, the project's entry wins, as in Gemini CLI.
 */
export async function settingsMcpServers(
  file: string,
  dialect: NonNullable<DefinitionSource['foreign']>,
  /** Undefined: the user-level file is not read. */
  home: string | undefined,
): Promise<SettingsServers> {
  const folder = SETTINGS[dialect];
  if (!folder) return NONE;
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf(folder);
  if (at < 0) return NONE;
  const project = [...parts.slice(0, at + 1), 'settings.json'].join(path.sep);
  const found = [await readSettings(project, `${folder}/settings.json`)];
  // An agent in the user's own ~/.gemini/agents has that file as its project settings already.
  const user = home === undefined ? undefined : path.join(home, folder, 'settings.json');
  if (dialect === 'gemini-cli' && user && path.resolve(user) !== path.resolve(project))
    found.unshift(await readSettings(user, `~/${folder}/settings.json`));
  return {
    servers: Object.assign({}, ...found.map((f) => f.servers)) as Record<string, unknown>,
    from: Object.assign({}, ...found.map((f) => f.from)) as Record<string, string>,
    notes: found.flatMap((f) => f.notes),
  };
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
export function grantsServer(tools: unknown, server: string): boolean {
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
 * twice, and a tool list that names none of a server's tools leaves it out.
 */
export function withSettingsServers(
  raw: Record<string, unknown>,
  found: SettingsServers,
  tools: unknown,
  projectServers: readonly string[],
): SourceNote[] {
  const notes = [...found.notes];
  const own = isRecord(raw.mcpServers) ? raw.mcpServers : {};
  const added: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(found.servers)) {
    if (name in own || projectServers.includes(name) || !grantsServer(tools, name)) continue;
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
