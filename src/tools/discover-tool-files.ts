import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../errors/cadre-error.js';
import type { FileGate } from '../contracts/file-gate.js';
import type { Tool } from './types.js';

const TOOL_FILE = /\.tools?\.(ts|mts|js|mjs)$/;
/** Names the runtime or the server gives their own tools, whatever the environment. */
const ALWAYS_RESERVED = [
  'task',
  'complete_task',
  'emit_value',
  'exit_loop',
  'web_search',
  'gmail_send',
  'calendar_event_create',
];
const SKIP = new Set(['node_modules', '.git', 'dist']);

/**
 * Tool modules under a folder (agent-format `tool_root`): files named
 * `*.tool.ts` / `*.tools.js` (any of ts, mts, js, mjs) exporting a tool as
 * `default`, or a list as `tools`. Searched a few levels deep, in name order.
 * The first file that fails to load is an error.
 */
export async function discoverToolFiles(root: string, signal?: AbortSignal): Promise<Tool[]> {
  const tools: Tool[] = [];
  for (const loaded of await loadToolFolder(root, signal)) {
    if (loaded.kind === 'failed')
      throw new ConfigError(`${relative(root, loaded.file)}: ${loaded.reason}`);
    tools.push(...loaded.tools);
  }
  return tools;
}

/** A code tool found in a declared folder, with where it came from. */
export interface CodeTool {
  tool: Tool;
  /** The module it came from, relative to the project folder when inside it. */
  file: string;
  origin: 'project' | 'user';
}

export interface ToolDiscovery {
  tools: CodeTool[];
  /** Files left out (threw on import, exported no tool) and names refused, each naming the file. */
  warnings: string[];
}

export interface ProjectToolOptions {
  cwd: string;
  /** User folder (default the home directory): tools in `<home>/.cadre/tools`. */
  home?: string;
  /** Names a code tool may not take (built-in tools, `task`, the completion tools). */
  reserved: readonly string[];
  /** Workspace trust: a project module is imported only when it allows it (the user's always are). */
  gate?: FileGate;
  signal?: AbortSignal;
}

/** The folders code tools are imported from: declared folders only, like agents. */
const TOOL_FOLDERS = ['.cadre/tools', 'tools'] as const;

/**
 * Code tools for the CLI and the server: `*.tool.ts` modules in the
 * project's `.cadre/tools` and `tools`, then the user's `~/.cadre/tools`.
 * A project tool beats a user tool of the same name; a module that throws
 * on import, or a name a built-in already has, is a warning, never fatal.
 */
export async function discoverProjectTools(options: ProjectToolOptions): Promise<ToolDiscovery> {
  const home = options.home ?? homedir();
  const folders = [
    ...TOOL_FOLDERS.map((dir) => ({ dir: join(options.cwd, dir), origin: 'project' as const })),
    { dir: join(home, '.cadre/tools'), origin: 'user' as const },
  ];
  const reserved = new Set([...ALWAYS_RESERVED, ...options.reserved]);
  const seen = new Map<string, string>();
  const tools: CodeTool[] = [];
  const warnings: string[] = [];
  const read = new Set<string>();
  for (const { dir, origin } of folders) {
    if (read.has(dir) || !(await stat(dir).catch(() => undefined))?.isDirectory()) continue;
    read.add(dir);
    const gate = origin === 'project' ? options.gate : undefined;
    for (const loaded of await loadToolFolder(dir, options.signal, gate)) {
      const file = shortPath(options.cwd, loaded.file);
      if (loaded.kind === 'failed') {
        warnings.push(`skipped ${file}: ${loaded.reason}`);
        continue;
      }
      for (const tool of loaded.tools) {
        const earlier = seen.get(tool.name);
        if (reserved.has(tool.name))
          warnings.push(`skipped ${file}: the tool name "${tool.name}" is a built-in tool's`);
        else if (earlier)
          warnings.push(
            `skipped ${file}: the tool "${tool.name}" is already defined in ${earlier}`,
          );
        else {
          seen.set(tool.name, file);
          tools.push({ tool, file, origin });
        }
      }
    }
  }
  return { tools, warnings };
}

type LoadedFile =
  | { kind: 'loaded'; file: string; tools: Tool[] }
  | { kind: 'failed'; file: string; reason: string };

async function loadToolFolder(
  root: string,
  signal?: AbortSignal,
  gate?: FileGate,
): Promise<LoadedFile[]> {
  const found = await findToolFiles(root, 3, signal);
  // An untrusted module is never imported; the gate reports it, with how to trust it.
  const files: string[] = [];
  for (const file of found) if (!gate || (await gate.allows(file, 'tool module'))) files.push(file);
  if (files.length === 0) return [];
  const { createJiti } = await import('jiti');
  // `import { defineTool } from 'cadre'` works in a tool folder even where cadre is not installed.
  const jiti = createJiti(import.meta.url, {
    moduleCache: false,
    fsCache: false,
    ...(installedIn(root) ? {} : { alias: { cadre: toolKit() } }),
  });
  const loaded: LoadedFile[] = [];
  for (const file of files) {
    signal?.throwIfAborted();
    let module: Record<string, unknown>;
    try {
      module = ((await jiti.import(file)) ?? {}) as Record<string, unknown>;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      loaded.push({ kind: 'failed', file, reason: `the tool module failed to load: ${reason}` });
      continue;
    }
    const found = [module.default, ...(Array.isArray(module.tools) ? module.tools : [])].filter(
      isTool,
    );
    loaded.push(
      found.length > 0
        ? { kind: 'loaded', file, tools: found }
        : {
            kind: 'failed',
            file,
            reason:
              'expected `export default defineTool({...})` or `export const tools = [...]` (each with name, description, inputSchema, sideEffect and execute).',
          },
    );
  }
  return loaded;
}

/** Whether `cadre` resolves from the folder (the project installed it). */
function installedIn(dir: string): boolean {
  try {
    createRequire(join(dir, 'tool.js')).resolve('cadre');
    return true;
  } catch {
    return false;
  }
}

/** The tool-writing API of this package, compiled or source, for the `cadre` alias. */
function toolKit(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const compiled = resolve(here, 'tool-kit.js');
  return existsSync(compiled) ? compiled : resolve(here, 'tool-kit.ts');
}

function shortPath(cwd: string, file: string): string {
  const path = relative(cwd, file);
  return path.startsWith('..') ? file : path;
}

async function findToolFiles(dir: string, depth: number, signal?: AbortSignal): Promise<string[]> {
  signal?.throwIfAborted();
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory() && depth > 0 && !SKIP.has(entry.name) && !entry.name.startsWith('.')) {
      found.push(...(await findToolFiles(join(dir, entry.name), depth - 1, signal)));
    } else if (entry.isFile() && TOOL_FILE.test(entry.name)) {
      found.push(join(dir, entry.name));
    }
  }
  return found;
}

function isTool(value: unknown): value is Tool {
  const tool = value as Partial<Tool> | null;
  return (
    typeof tool?.name === 'string' &&
    typeof tool.description === 'string' &&
    typeof tool.execute === 'function' &&
    typeof tool.inputSchema === 'object' &&
    typeof tool.sideEffect === 'boolean'
  );
}
