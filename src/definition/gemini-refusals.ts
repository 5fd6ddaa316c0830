import { describeValue } from './describe-value.js';
import type { SourceMapper } from './issues.js';
import { canonicalToolName } from './tool-names.js';
import type { SourceNote } from './translating-mapper.js';

/**
 * What Gemini CLI's own agent loader (a strict zod schema in
 * `agents/agentLoader.ts`) accepts in a Markdown agent's frontmatter. Cadre
 * runs such files anyway, but says at the line each point the original
 * refuses, so the author knows the file is not a Gemini CLI agent as written.
 */
const LOCAL_KEYS = new Set([
  'kind',
  'name',
  'description',
  'display_name',
  'tools',
  'model',
  'temperature',
  'max_turns',
  'timeout_mins',
  'policy',
  'mcp_servers',
]);
const REMOTE_KEYS = new Set([
  'kind',
  'name',
  'description',
  'display_name',
  'agent_card_url',
  'auth',
]);

/** Keys Cadre reads from a Markdown agent (beyond Gemini CLI's own). */
const CADRE_READS = new Set([
  'maxTurns',
  'mcpServers',
  'disallowedTools',
  'displayName',
  'inputConfig',
  'input_config',
  'outputConfig',
  'output_config',
  'onReject',
  'on_reject',
]);

/** Gemini CLI's built-in tool names (and the legacy `search_file_content`). */
const GEMINI_TOOLS = new Set([
  'glob',
  'grep_search',
  'search_file_content',
  'list_directory',
  'read_file',
  'read_many_files',
  'run_shell_command',
  'write_file',
  'replace',
  'google_web_search',
  'web_fetch',
  'write_todos',
  'save_memory',
  'get_internal_docs',
  'activate_skill',
  'ask_user',
  'enter_plan_mode',
  'exit_plan_mode',
  'update_topic',
]);

/** Cadre's tool → Gemini CLI's name for it, to say what to write instead. */
const GEMINI_NAME: Readonly<Record<string, string>> = {
  read_file: 'read_file',
  write_file: 'write_file',
  edit_file: 'replace',
  glob: 'glob',
  grep: 'grep_search',
  ls: 'list_directory',
  shell: 'run_shell_command',
  web_fetch: 'web_fetch',
  web_search: 'google_web_search',
  todo_write: 'write_todos',
};

const SLUG = /^[a-z0-9-_]+$/;
const MCP_NAME = /^mcp_[a-z0-9_.:-]+$/i;

/** Whether Gemini CLI's `isValidToolName` (wildcards allowed) takes `name`. */
function geminiToolName(name: string): boolean {
  if (GEMINI_TOOLS.has(name) || name === '*' || name.startsWith('discovered_tool_')) return true;
  if (name === 'mcp_*') return true;
  // mcp_<server>_<tool>: a server part, then a tool part (or `*`).
  if (!MCP_NAME.test(name) && !/^mcp_[a-z0-9_.:-]+\*$/i.test(name)) return false;
  const rest = name.slice('mcp_'.length);
  const split = rest.indexOf('_');
  return split > 0 && split < rest.length - 1 && !/^_*$/.test(rest.slice(split + 1));
}

/**
 * Every point of `fm` Gemini CLI's loader refuses, each at its own key or
 * entry. Bad values Cadre refuses too (temperature, max_turns) are left to
 * Cadre's own errors.
 */
export function geminiRefusals(fm: Record<string, unknown>, mapper: SourceMapper): SourceNote[] {
  const notes: SourceNote[] = [];
  const refuse = (path: (string | number)[], what: string, anchor: 'key' | 'value') => {
    const at = mapper.position(path, anchor);
    notes.push({
      path,
      message: `Gemini CLI refuses this file: ${what}`,
      severity: 'warning',
      ...(at ? { at } : {}),
    });
  };
  const remote = fm.kind === 'remote';
  const allowed = remote ? REMOTE_KEYS : LOCAL_KEYS;
  for (const key of Object.keys(fm)) {
    if (allowed.has(key)) continue;
    const cadre =
      CADRE_READS.has(key) || LOCAL_KEYS.has(key) ? 'Cadre reads it' : 'Cadre ignores it';
    refuse([key], `unknown key "${key}" (${cadre})`, 'key');
  }
  if (typeof fm.name === 'string' && !SLUG.test(fm.name.trim()))
    refuse(
      ['name'],
      `name ${describeValue(fm.name)} must be lower-case letters, digits, - and _`,
      'value',
    );
  if (typeof fm.tools === 'string')
    refuse(
      ['tools'],
      'tools must be a list (tools: [read_file, grep_search]), not a string',
      'value',
    );
  else if (Array.isArray(fm.tools) && !remote)
    fm.tools.forEach((entry: unknown, index) => {
      if (typeof entry === 'string' && geminiToolName(entry.trim())) return;
      const name = typeof entry === 'string' ? entry.trim() : describeValue(entry);
      const own = typeof entry === 'string' ? GEMINI_NAME[canonicalToolName(entry)] : undefined;
      refuse(
        ['tools', index],
        `"${name}" is not a Gemini CLI tool name${own ? ` (Gemini CLI calls it ${own})` : ''}`,
        'value',
      );
    });
  if (fm.model !== undefined && typeof fm.model !== 'string')
    refuse(['model'], `model must be a string, got ${describeValue(fm.model)}`, 'value');
  return notes;
}
