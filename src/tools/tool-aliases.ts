import type { Tool } from './types.js';

/**
 * Alias → tool name, from the tools' declared `aliases`. A tool's own name
 * is never shadowed, and the first tool to declare an alias keeps it.
 */
export function toolAliasesOf(tools: readonly Tool[]): Record<string, string> {
  const names = new Set(tools.map((tool) => tool.name));
  const aliases: Record<string, string> = {};
  for (const tool of tools)
    for (const alias of tool.aliases ?? [])
      if (!names.has(alias) && !Object.hasOwn(aliases, alias)) aliases[alias] = tool.name;
  return aliases;
}
