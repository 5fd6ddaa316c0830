import type { RawMcpServer } from './mcp-servers-schema.js';

/**
 * One MCP server as agent files and `.mcp.json` files write it: stdio
 * (`command`, `args`, `env`, `cwd`) or remote (`url` / Gemini's `httpUrl`,
 * `headers`, `type: http | sse`). Values may hold `${VAR}` or
 * `${VAR:-default}`, expanded from the environment when the server starts,
 * so secrets stay out of definitions and stored snapshots.
 */
export type McpServerConfig = McpStdioServer | McpRemoteServer;

interface McpServerCommon {
  /** Per-request time limit in ms. */
  timeoutMs?: number;
  /** Only these tools of the server are offered (Gemini CLI's `includeTools`). */
  includeTools?: string[];
  /** These tools are never offered (`excludeTools`). */
  excludeTools?: string[];
  /**
   * The project takes this server's `readOnlyHint` at its word (`trust:
   * readOnlyHints`). Without it every tool of the server is a side effect:
   * a server's own label never lowers the approval bar.
   */
  trustReadOnlyHints?: true;
}

export interface McpStdioServer extends McpServerCommon {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface McpRemoteServer extends McpServerCommon {
  /** `http` is the streamable HTTP transport; `sse` the older HTTP+SSE one. */
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

export type ServerConfigResult =
  { ok: true; config: McpServerConfig } | { ok: false; field: string; message: string };

/** A checked raw entry → the one shape the client connects with. */
export function toServerConfig(raw: RawMcpServer): ServerConfigResult {
  const includeTools = bothSpellings(raw.includeTools, raw.include_tools, 'include');
  const excludeTools = bothSpellings(raw.excludeTools, raw.exclude_tools, 'exclude');
  const common: McpServerCommon = {
    ...(raw.timeout !== undefined ? { timeoutMs: raw.timeout } : {}),
    ...(includeTools ? { includeTools } : {}),
    ...(excludeTools ? { excludeTools } : {}),
    ...(raw.trust === 'readOnlyHints' ? { trustReadOnlyHints: true as const } : {}),
  };
  const url = raw.httpUrl ?? raw.url;
  if (raw.command !== undefined && raw.type !== 'http' && raw.type !== 'sse') {
    return {
      ok: true,
      config: {
        transport: 'stdio',
        command: raw.command,
        args: raw.args ?? [],
        env: raw.env ?? {},
        ...(raw.cwd ? { cwd: raw.cwd } : {}),
        ...common,
      },
    };
  }
  if (url === undefined) {
    return raw.type === 'stdio'
      ? { ok: false, field: 'command', message: 'a stdio server needs `command`' }
      : { ok: false, field: 'url', message: 'needs `command` (stdio) or `url` (remote)' };
  }
  // Gemini CLI: `url` alone is the older SSE transport, `httpUrl` the streamable one.
  const sse =
    raw.type === 'sse' ||
    (raw.type === undefined && raw.httpUrl === undefined && /\/sse\/?$/.test(url));
  return {
    ok: true,
    config: { transport: sse ? 'sse' : 'http', url, headers: raw.headers ?? {}, ...common },
  };
}

/**
 * `includeTools` and Gemini's `include_tools` written together: only tools
 * both allow; the two exclude lists add up. The stricter reading, never the looser.
 */
function bothSpellings(
  camel: string[] | undefined,
  snake: string[] | undefined,
  kind: 'include' | 'exclude',
): string[] | undefined {
  if (!camel || !snake) return camel ?? snake;
  if (kind === 'exclude') return [...new Set([...camel, ...snake])];
  return camel.filter((tool) => snake.includes(tool));
}

/** `${VAR}` or `${VAR:-default}`: group 1 the name, group 2 the default (when written). */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${VAR}` and `${VAR:-default}` from `env`; an unset variable without a default becomes empty. */
export function expandVariables(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(
    VARIABLE,
    (_, name: string, fallback: string | undefined) => env[name] || fallback || '',
  );
}

/** Which variables a config needs that the environment does not set (for a clear error). */
export function missingVariables(config: McpServerConfig, env: NodeJS.ProcessEnv): string[] {
  const values =
    config.transport === 'stdio'
      ? [config.command, ...config.args, ...Object.values(config.env), config.cwd ?? '']
      : [config.url, ...Object.values(config.headers)];
  const missing = new Set<string>();
  for (const value of values) {
    for (const match of value.matchAll(VARIABLE)) {
      if (match[2] === undefined && !env[match[1] as string]) missing.add(match[1] as string);
    }
  }
  return [...missing];
}
