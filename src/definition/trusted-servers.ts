import type { McpServerConfig } from './mcp-server-config.js';
import type { FileGate } from '../contracts/file-gate.js';
import type { LoadResult } from './load-options.js';
import { displayFile } from './validate-context.js';

/**
 * What trusting a server would let the file do, as a person is shown it:
 * `name: command arg…` for a command it starts on this machine, or the URL
 * and headers for a server by URL that fills in `${VAR}`s from this
 * machine's environment (an untrusted file could send a token anywhere).
 * Undefined for a server that needs no trust (a URL with no variables).
 */
function describeCommand(name: string, config: McpServerConfig): string | undefined {
  const quote = (word: string): string =>
    /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
  if (config.transport === 'stdio')
    return `${name}: ${[config.command, ...config.args].map(quote).join(' ')}`;
  const values = [config.url, ...Object.values(config.headers)];
  if (!values.some((value) => value.includes('${'))) return undefined;
  const headers = Object.entries(config.headers).map(([key, value]) => `${key}: ${value}`);
  return `${name}: ${[config.url, ...headers].map(quote).join(' ')} (reads your environment)`;
}

/**
 * An agent file's stdio MCP servers start a command on the host, and a
 * server by URL with `${VAR}`s sends the host's secrets: they stay only when
 * the gate trusts the file. A plain URL is neither and stays.
 * Each server left out is a warning naming the file.
 */
export async function withTrustedServers(
  loaded: LoadResult,
  file: string,
  gate: FileGate | undefined,
  cwd: string,
): Promise<LoadResult> {
  const servers = loaded.definition.mcpServers;
  if (!gate || !servers) return loaded;
  const commands = Object.entries(servers).flatMap(([name, config]) => {
    const shown = describeCommand(name, config);
    return shown ? [{ name, shown }] : [];
  });
  if (commands.length === 0) return loaded;
  if (
    await gate.allows(
      file,
      'MCP commands',
      commands.map((c) => c.shown),
    )
  )
    return loaded;
  const shown = displayFile(file, cwd) ?? file;
  const kept = Object.fromEntries(
    Object.entries(servers).filter(([name]) => !commands.some((c) => c.name === name)),
  );
  // Their tools go too: a grant of a server that never starts would stop the run instead.
  const ofLeftOut = (tool: string) => commands.some((c) => tool.startsWith(`${c.name}__`));
  const { patterns, tools } = loaded.definition.toolConfig;
  const keptPatterns = patterns
    ? Object.fromEntries(Object.entries(patterns).filter(([tool]) => !ofLeftOut(tool)))
    : undefined;
  const definition = {
    ...loaded.definition,
    toolConfig: {
      tools: tools.filter((tool) => !ofLeftOut(tool)),
      ...(keptPatterns && Object.keys(keptPatterns).length > 0 ? { patterns: keptPatterns } : {}),
    },
  };
  if (Object.keys(kept).length > 0) definition.mcpServers = kept;
  else delete definition.mcpServers;
  return {
    definition,
    warnings: [
      ...loaded.warnings,
      ...commands.map(({ name }) => ({
        path: `mcpServers.${name}`,
        message: `MCP server "${name}" is not started, and its tools are left out: it runs a command on this machine, or sends values from its environment, and this file is not trusted (cadre trust ${shown})`,
        file: shown,
        severity: 'warning' as const,
      })),
    ],
  };
}
