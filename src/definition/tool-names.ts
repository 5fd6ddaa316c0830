import { didYouMean } from './did-you-mean.js';
import { parseMcpReference, referenceName } from './mcp-tool-names.js';
import { parseGeminiMcpName } from './gemini-mcp-name.js';
import { errorAt, warningAt, type IssuePath, type PendingIssue } from './issues.js';

/** Tools every Cadre install has (the built-ins). Callers with more tools pass `knownTools`. */
export const DEFAULT_KNOWN_TOOLS: readonly string[] = [
  'ls',
  'read_file',
  'glob',
  'grep',
  'write_file',
  'edit_file',
  'shell',
  'web_fetch',
  'todo_write',
];

/** Cadre's delegation tool (TASK_TOOL in runtime/subagents): known only where a caller lists it. */
const TASK = 'task';

/**
 * Tools the runtime gives an agent itself rather than from the pool, so
 * they are known wherever a definition names them: `exit_loop` ends the
 * loop an agent runs in (ADK's LoopAgent).
 */
const CONTROL_TOOLS: ReadonlySet<string> = new Set(['exit_loop']);

/** Why a tool Cadre has is missing here, where setting something up would bring it. */
const SETUP_HINTS: Readonly<Record<string, string>> = {
  web_search: 'web_search needs a search provider: set BRAVE_API_KEY',
  [TASK]: 'task needs agents to delegate to: run it with `cadre run`, or list "task" in knownTools',
};

/**
 * Vendor tools with no Cadre counterpart (lower-cased names) and what the
 * author can do instead. Not aliases: the nearest Cadre tool does not do the same.
 */
const VENDOR_HINTS: Readonly<Record<string, string>> = {
  skill: 'Claude Code skills are not loaded: put what the agent needs from the skill in its prompt',
  activate_skill:
    'Gemini CLI skills are not loaded: put what the agent needs from the skill in its prompt',
  notebookedit:
    "edit_file can change a notebook's JSON text, not cells by id: grant edit_file if that is enough",
  notebookread: "read_file reads a notebook's JSON text: grant read_file if that is enough",
};

/** Claude Code's own agent types, which `Task(Explore)` may name but Cadre does not have. */
const CLAUDE_AGENT_TYPES = new Set(['explore', 'plan', 'general-purpose', 'statusline-setup']);

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
  shelltool: 'shell',
  run_shell_command: 'shell',
  shell: 'shell',
  task: TASK,
  agent: TASK,
  todowrite: 'todo_write',
  write_todos: 'todo_write',
  todo_write: 'todo_write',
  webfetch: 'web_fetch',
  web_fetch: 'web_fetch',
  websearch: 'web_search',
  web_search: 'web_search',
  google_web_search: 'web_search',
  google_search: 'web_search',
};

/**
 * An ADK tool written as a Python function path (`agents.studio_tools.read_file`):
 * Cadre cannot import it, but a code tool can stand for it.
 */
function pythonPathHint(name: string): string | undefined {
  if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/.test(name)) return undefined;
  return `a Python function, which Cadre cannot import: a code tool with "${name}" in its aliases provides it`;
}

/** Cadre's name for a tool name written for any supported tool. */
export const canonicalToolName = (name: string): string =>
  ALIASES[name.trim().toLowerCase()] ?? name.trim();

/**
 * Tools that can enforce the patterns a definition narrows them to
 * (`Bash(git:*)`; `Task(code-reviewer)` is the agents task may start).
 */
const NARROWABLE = new Set(['shell', 'web_fetch', TASK]);

/** `Bash(git status:*)` → `{ name: 'Bash', pattern: 'git status:*' }`; a plain name has no pattern. */
function splitToolPattern(entry: string): { name: string; pattern?: string } {
  const match = /^([^()]+)\((.*)\)$/s.exec(entry.trim());
  if (!match) return { name: entry.trim() };
  return { name: (match[1] as string).trim(), pattern: (match[2] as string).trim() };
}

/**
 * Gemini CLI's `run_shell_command(git)` allows every command that starts
 * with the word `git`; Claude Code's `Bash(git)` only `git` itself. Patterns
 * are kept in Claude's form, so Gemini's become `git:*`.
 */
function inClaudeForm(pattern: string, dialect: ToolDialect): string {
  if (dialect !== 'gemini-cli' || pattern === '' || pattern.includes('*')) return pattern;
  return `${pattern}:*`;
}

export type ToolDialect = 'cadre' | 'claude-code' | 'gemini-cli' | 'adk';

export interface ResolvedTools {
  tools: string[];
  /** Canonical tool name → the patterns it is narrowed to; a tool also granted whole has none. */
  patterns: Record<string, string[]>;
  issues: PendingIssue[];
}

export interface ResolveToolsOptions {
  known: readonly string[];
  /** Another name a tool may be granted by → its name (a code tool's declared `aliases`). */
  aliases?: Readonly<Record<string, string>>;
  /** Foreign files: a missing tool warns (they name vendor tools Cadre cannot have). */
  foreign: boolean;
  dialect: ToolDialect;
  isKnownAgent?: (name: string) => boolean;
  /** MCP servers the agent may reference: its own and the project's. */
  mcpServers?: ReadonlySet<string>;
  /** The project files left out as untrusted: the likely reason a name is unknown. */
  untrustedHint?: string;
}

/**
 * Maps tool names to Cadre's and drops duplicates. A tool Cadre lacks is an
 * error in Cadre's own files (a typo must not silently shrink an agent) and a
 * warning in foreign files (they name MCP and vendor tools Cadre cannot have).
 * `Name(pattern)` grants the tool narrowed to its patterns; MCP references
 * (`mcp__server__tool`, `server__tool`, `mcp__server`, Gemini CLI's
 * `mcp_server_tool`) become `server__tool` or `server__*`, resolved when the
 * run starts its servers.
 */
export function resolveTools(
  names: readonly string[],
  path: IssuePath,
  options: ResolveToolsOptions,
): ResolvedTools {
  const { known, foreign } = options;
  const servers = options.mcpServers ?? new Set<string>();
  const tools: string[] = [];
  const patterns: Record<string, string[]> = {};
  const whole = new Set<string>();
  const issues: PendingIssue[] = [];
  const reported = new Set<string>();
  const untrusted = options.untrustedHint ? ` (${options.untrustedHint})` : '';
  const grant = (name: string) => {
    if (!tools.includes(name)) tools.push(name);
  };
  const missing = (index: number, written: string, warning: string, error: string) => {
    if (reported.has(written)) return;
    reported.add(written);
    issues.push(
      foreign
        ? warningAt([...path, index], `${warning}; the agent loads without it`)
        : errorAt([...path, index], error),
    );
  };
  names.forEach((written, index) => {
    const { name, pattern } = splitToolPattern(written);
    const mcp = parseMcpReference(name, servers) ?? parseGeminiMcpName(name, servers);
    if (mcp) {
      if (servers.has(mcp.server)) grant(referenceName(mcp));
      else {
        const message = `tool "${written}" needs the MCP server "${mcp.server}", which is not configured${untrusted}`;
        missing(
          index,
          written,
          message,
          `${message}${untrusted ? '' : ' (declare it under mcpServers or in .cadre/mcp.json)'}`,
        );
      }
      return;
    }
    // A code tool that declared this name (an ADK Python path) stands for it.
    const declared = Object.hasOwn(options.aliases ?? {}, name)
      ? options.aliases?.[name]
      : undefined;
    if (declared !== undefined && known.includes(declared)) {
      grant(declared);
      whole.add(declared);
      return;
    }
    const canonical = canonicalToolName(name);
    if (
      !known.includes(canonical) &&
      !CONTROL_TOOLS.has(canonical) &&
      !options.isKnownAgent?.(name)
    ) {
      const mapped = canonical !== name ? ` (Cadre's "${canonical}")` : '';
      const setup = SETUP_HINTS[canonical];
      const why = setup ?? VENDOR_HINTS[name.toLowerCase()] ?? pythonPathHint(name);
      const because = why ? ` (${why})` : '';
      missing(
        index,
        written,
        `tool "${written}"${mapped} is not available${setup ? '' : ' in Cadre'}${untrusted || because}`,
        `unknown tool "${written}"${mapped}${untrusted || because || didYouMean(canonical, known) || `; available: ${known.join(', ')}`}`,
      );
      return;
    }
    grant(canonical);
    if (pattern === undefined || pattern === '*' || pattern === '') {
      whole.add(canonical);
      return;
    }
    if (!NARROWABLE.has(canonical)) {
      issues.push(
        warningAt(
          [...path, index],
          `"${written}": Cadre's ${canonical} cannot be narrowed by a pattern; the tool is granted whole`,
        ),
      );
      whole.add(canonical);
      return;
    }
    if (canonical === TASK) {
      const types = agentTypes(pattern);
      (patterns[canonical] ??= []).push(...types);
      issues.push(...unknownAgentTypes(types, written, [...path, index], options.isKnownAgent));
      return;
    }
    (patterns[canonical] ??= []).push(inClaudeForm(pattern, options.dialect));
  });
  for (const name of whole) delete patterns[name];
  return { tools, patterns, issues };
}

/** `Agent(worker, researcher)`: the agent types a Claude Code file lets task start. */
const agentTypes = (pattern: string): string[] => pattern.split(/[\s,]+/).filter(Boolean);

/**
 * Task narrowed to an agent nobody registered can never start it: said at
 * load, so the author is not surprised by refusals at run time. Unchecked
 * where the caller knows no agents.
 */
function unknownAgentTypes(
  types: readonly string[],
  written: string,
  path: IssuePath,
  isKnownAgent: ((name: string) => boolean) | undefined,
): PendingIssue[] {
  if (!isKnownAgent) return [];
  return types
    .filter((type) => !isKnownAgent(type))
    .map((type) => {
      const vendor = CLAUDE_AGENT_TYPES.has(type.toLowerCase())
        ? ` (${type} is one of Claude Code's own agents)`
        : '';
      return warningAt(
        path,
        `"${written}": no agent "${type}" is known${vendor}, so task cannot start it`,
      );
    });
}
