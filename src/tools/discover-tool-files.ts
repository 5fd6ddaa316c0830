import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import type { Tool } from './types.js';

const TOOL_FILE = /\.tools?\.(ts|mts|js|mjs)$/;
const SKIP = new Set(['node_modules', '.git', 'dist']);

/**
 * Tool modules under a folder (agent-format `tool_root`): files named
 * `*.tool.ts` / `*.tools.js` (any of ts, mts, js, mjs) exporting a tool as
 * `default`, or a list as `tools`. Searched a few levels deep, in name order.
 */
export async function discoverToolFiles(root: string, signal?: AbortSignal): Promise<Tool[]> {
  const files = await findToolFiles(root, 3, signal);
  if (files.length === 0) return [];
  const { createJiti } = await import('jiti');
  const jiti = createJiti(import.meta.url, { moduleCache: false });
  const tools: Tool[] = [];
  for (const file of files) {
    signal?.throwIfAborted();
    let module: Record<string, unknown>;
    try {
      module = (await jiti.import(file)) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError(
        `${relative(root, file)}: the tool module failed to load: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
    }
    const found = [module.default, ...(Array.isArray(module.tools) ? module.tools : [])].filter(
      isTool,
    );
    if (found.length === 0)
      throw new ConfigError(
        `${relative(root, file)}: expected \`export default defineTool({...})\` or \`export const tools = [...]\`.`,
      );
    tools.push(...found);
  }
  return tools;
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
    typeof tool.execute === 'function' &&
    typeof tool.inputSchema === 'object'
  );
}
