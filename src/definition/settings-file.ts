import { readFile } from 'node:fs/promises';
import { isRecord } from './describe-value.js';
import type { SourceNote } from './translating-mapper.js';

export interface SettingsServers {
  /** Raw server entries by name, as the settings files write them. */
  servers: Record<string, unknown>;
  /** Which file each server came from, as a person would name it. */
  from: Record<string, string>;
  /**
   * Names given for this project alone by the person (Claude Code's local
   * scope): they win over the project's shared servers of the same name.
   */
  local: string[];
  notes: SourceNote[];
}

export const NO_SERVERS: SettingsServers = { servers: {}, from: {}, local: [], notes: [] };

export interface SettingsFile {
  /** The parsed file; undefined when there is none or it is not JSON. */
  data: unknown;
  notes: SourceNote[];
}

/**
 * One settings file, named `label` in notes. No file, no data; a file that
 * is not JSON is a warning, not a refusal (the agent still loads, without
 * its servers).
 */
export async function readSettingsFile(file: string, label: string): Promise<SettingsFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { data: undefined, notes: [] };
  }
  try {
    return { data: JSON.parse(text) as unknown, notes: [] };
  } catch (error) {
    return {
      data: undefined,
      notes: [
        {
          path: [],
          message: `${label} is not valid JSON (${(error as Error).message}); its MCP servers are not read`,
          severity: 'warning',
        },
      ],
    };
  }
}

/** The `mcpServers` of `holder` (a settings file, or a part of one), named `label`. */
export function serversIn(holder: unknown, label: string): SettingsServers {
  const servers = isRecord(holder) && isRecord(holder.mcpServers) ? { ...holder.mcpServers } : {};
  return {
    ...NO_SERVERS,
    servers,
    from: Object.fromEntries(Object.keys(servers).map((n) => [n, label])),
  };
}

/** Several sources in rising precedence: on a name two give, the later one's entry wins. */
export function mergeServers(found: readonly SettingsServers[]): SettingsServers {
  const merged = Object.assign({}, ...found.map((f) => f.servers)) as Record<string, unknown>;
  const local = new Set<string>();
  for (const f of found)
    for (const name of Object.keys(f.servers))
      if (f.local.includes(name)) local.add(name);
      else local.delete(name);
  return {
    servers: merged,
    from: Object.assign({}, ...found.map((f) => f.from)) as Record<string, string>,
    local: [...local],
    notes: found.flatMap((f) => f.notes),
  };
}
