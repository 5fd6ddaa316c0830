import { isRecord } from './describe-value.js';
import type { NamedServer } from './markdown-to-raw.js';
import type { PathRule, SourceNote } from './translating-mapper.js';

/**
 * Claude Code's `mcpServers: [github]` means "this agent uses the
 * configured server named github": one of the agent's own servers (by then
 * merged with `.claude/settings.json` and `~/.claude.json`) or one of the
 * project's (`.cadre/mcp.json`, `.mcp.json`). Each found name grants all
 * of that server's tools, located at its list entry; a name found nowhere
 * is a warning at that entry, never a tool.
 */
export function resolveNamedServers(
  raw: Record<string, unknown>,
  rules: PathRule[],
  named: readonly NamedServer[],
  projectServers: readonly string[],
  untrustedHint: string | undefined,
): SourceNote[] {
  const own = isRecord(raw.mcpServers) ? Object.keys(raw.mcpServers) : [];
  const tools = (raw.toolConfig as { tools: string[] }).tools;
  const notes: SourceNote[] = [];
  for (const { name, path } of named) {
    if (own.includes(name) || projectServers.includes(name)) {
      rules.push([['toolConfig', 'tools', tools.length], path]);
      tools.push(`mcp__${name}`);
      continue;
    }
    const known = [...new Set([...own, ...projectServers])];
    const why = untrustedHint
      ? ` (${untrustedHint})`
      : known.length > 0
        ? `; configured: ${known.join(', ')}`
        : ' (.mcp.json, .cadre/mcp.json and .claude/settings.json list none)';
    notes.push({
      path,
      message: `MCP server "${name}" is not configured${why}; the agent loads without it`,
      severity: 'warning',
    });
  }
  return notes;
}
