import { didYouMean } from './did-you-mean.js';
import { errorAt, warningAt, type IssuePath, type PendingIssue } from './issues.js';

/** Tools every Cadre install has (the built-ins). Callers with more tools pass `knownTools`. */
export const DEFAULT_KNOWN_TOOLS: readonly string[] = [
  'ls',
  'read_file',
  'glob',
  'grep',
  'write_file',
  'edit_file',
];

/**
 * Claude Code and Gemini CLI tool names → Cadre's (lower-cased keys: `Read`
 * and `read` are the same tool). Names that map to a tool Cadre does not have
 * yet (shell, web_fetch) are still mapped, so the warning says what is missing.
 */
const ALIASES: Readonly<Record<string, string>> = {
  read: 'read_file',
  read_file: 'read_file',
  read_many_files: 'read_file',
  write: 'write_file',
  write_file: 'write_file',
  edit: 'edit_file',
  multiedit: 'edit_file',
  replace: 'edit_file',
  edit_file: 'edit_file',
  glob: 'glob',
  grep: 'grep',
  grep_search: 'grep',
  search_file_content: 'grep',
  ls: 'ls',
  list_directory: 'ls',
  bash: 'shell',
  run_shell_command: 'shell',
  shell: 'shell',
  webfetch: 'web_fetch',
  web_fetch: 'web_fetch',
};

/** Cadre's name for a tool name written for any supported tool. */
export const canonicalToolName = (name: string): string =>
  ALIASES[name.trim().toLowerCase()] ?? name.trim();

export interface ResolvedTools {
  tools: string[];
  issues: PendingIssue[];
}

/**
 * Maps tool names to Cadre's and drops duplicates. A tool Cadre lacks is an
 * error in Cadre's own files (a typo must not silently shrink an agent) and a
 * warning in foreign files (they name MCP and vendor tools Cadre cannot have).
 */
export function resolveTools(
  names: readonly string[],
  path: IssuePath,
  known: readonly string[],
  foreign: boolean,
  isKnownAgent: (name: string) => boolean = () => false,
): ResolvedTools {
  const tools: string[] = [];
  const issues: PendingIssue[] = [];
  const reported = new Set<string>();
  names.forEach((name, index) => {
    const canonical = canonicalToolName(name);
    if (known.includes(canonical) || isKnownAgent(name.trim())) {
      if (!tools.includes(canonical)) tools.push(canonical);
      return;
    }
    if (reported.has(name)) return;
    reported.add(name);
    const mapped = canonical !== name.trim() ? ` (Cadre's "${canonical}")` : '';
    if (foreign) {
      issues.push(
        warningAt(
          [...path, index],
          `tool "${name}"${mapped} is not available in Cadre; the agent loads without it`,
        ),
      );
    } else {
      const hint = didYouMean(canonical, known) || `; available: ${known.join(', ')}`;
      issues.push(errorAt([...path, index], `unknown tool "${name}"${mapped}${hint}`));
    }
  });
  return { tools, issues };
}
