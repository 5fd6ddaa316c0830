import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import type { FileGate } from '../contracts/file-gate.js';
import { toServerConfig, type McpServerConfig } from '../definition/mcp-server-config.js';
import { mcpServersField } from '../definition/mcp-servers-schema.js';

/** Where a project lists its MCP servers: Cadre's own file first, then Claude Code's. */
const PROJECT_MCP_FILES = [path.join('.cadre', 'mcp.json'), '.mcp.json'] as const;

export interface ProjectMcpConfig {
  servers: Record<string, McpServerConfig>;
  /** The file they came from, for messages. */
  file?: string;
  /** The file was there but not trusted: none of its servers were read. */
  untrusted?: true;
}

/**
 * Reads `{ "mcpServers": { name: server } }` from the first of
 * `.cadre/mcp.json` and `.mcp.json` in `cwd`. No file means no servers; a
 * file that is not valid JSON or names a bad server is an error that names
 * the file and the field.
 */
export async function loadProjectMcpConfig(
  cwd: string,
  /** Workspace trust: the file is read only when it allows it. */
  gate?: FileGate,
): Promise<ProjectMcpConfig> {
  for (const relative of PROJECT_MCP_FILES) {
    const file = path.join(cwd, relative);
    if (gate && !(await gate.allows(file, 'MCP servers')))
      return { servers: {}, file: relative, untrusted: true };
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    return { servers: parseProjectMcpConfig(text, relative), file: relative };
  }
  return { servers: {} };
}

export function parseProjectMcpConfig(text: string, file: string): Record<string, McpServerConfig> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const raw =
    data && typeof data === 'object' && 'mcpServers' in data
      ? (data as { mcpServers: unknown }).mcpServers
      : undefined;
  if (raw === undefined) throw new ConfigError(`${file}: expected an "mcpServers" mapping`);
  const parsed = mcpServersField().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ['mcpServers', ...(issue?.path ?? []).map(String)].join('.');
    throw new ConfigError(`${file}: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(parsed.data)) {
    const checked = toServerConfig(entry);
    if (!checked.ok)
      throw new ConfigError(`${file}: mcpServers.${name}.${checked.field}: ${checked.message}`);
    servers[name] = checked.config;
  }
  return servers;
}
