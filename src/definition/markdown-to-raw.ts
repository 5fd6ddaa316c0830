import path from 'node:path';
import { describeValue } from './describe-value.js';
import type { IssuePath } from './issues.js';
import { camelServerKeys } from './settings-mcp-servers.js';
import { defaultToolsFor } from './foreign-default-tools.js';
import { canonicalToolName } from './tool-names.js';
import type { PathRule, SourceNote } from './translating-mapper.js';
import { remoteAuth } from './remote-auth.js';
import type { DefinitionSource, RemoteAgentConfig } from './types.js';

export interface ForeignRaw {
  raw: Record<string, unknown>;
  rules: PathRule[];
  notes: SourceNote[];
  /** Gemini CLI `kind: remote`: the agent card it is called through. */
  remote?: RemoteAgentConfig;
  /** Claude Code's `mcpServers: [github]`: names of configured servers, where each was written. */
  namedServers: NamedServer[];
}

export interface NamedServer {
  name: string;
  path: IssuePath;
}

/** Cadre fields a Markdown agent may also carry in its frontmatter; passed through as written. */
const CADRE_KEYS = [
  'displayName',
  'display_name',
  'inputConfig',
  'input_config',
  'outputConfig',
  'output_config',
  'onReject',
  'on_reject',
];

const GEMINI_TOOLS = new Set([
  'read_file',
  'grep_search',
  'list_directory',
  'run_shell_command',
  'replace',
  'search_file_content',
  'google_web_search',
  'web_fetch',
  'read_many_files',
]);

type Dialect = NonNullable<DefinitionSource['foreign']>;

/** Which tool wrote the file: its path, Gemini-only keys or Gemini tool names tell. */
export function detectDialect(file: string, fm: Record<string, unknown>): Dialect {
  if (file.split(path.sep).includes('.gemini')) return 'gemini-cli';
  if (['kind', 'max_turns', 'timeout_mins', 'temperature'].some((key) => key in fm))
    return 'gemini-cli';
  return toolEntries(fm.tools).some((tool) => GEMINI_TOOLS.has(tool.name))
    ? 'gemini-cli'
    : 'claude-code';
}

/** `Read, Write` / `[Read, Write]` / a block list → names with their source paths. */
function toolEntries(value: unknown): { name: string; path: IssuePath }[] {
  if (typeof value === 'string') {
    return value
      .split(/,(?![^(]*\))/) // commas inside Agent(a, b) belong to the pattern
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => ({ name, path: ['tools'] }));
  }
  if (Array.isArray(value))
    return value.map((name, index) => ({ name: String(name).trim(), path: ['tools', index] }));
  return [];
}

/**
 * Tools a foreign agent gets: omitted or `*` = its own tool's default set
 * (as far as this install has it), `disallowedTools` (Claude Code) removed.
 * Unknown names stay in the list so the checks warn about them by name.
 */
function grantedTools(
  fm: Record<string, unknown>,
  knownTools: readonly string[],
  dialect: Dialect,
): { name: string; path: IssuePath }[] {
  const defaults = defaultToolsFor(dialect, knownTools);
  const omitted = fm.tools === undefined || fm.tools === null;
  const listed = omitted
    ? defaults.map((name) => ({ name, path: [] as IssuePath }))
    : toolEntries(fm.tools);
  const expanded = listed.flatMap((entry) =>
    entry.name === '*' ? defaults.map((name) => ({ name, path: entry.path })) : [entry],
  );
  const denied = new Set(
    toolEntries(fm.disallowedTools).map((entry) => canonicalToolName(entry.name)),
  );
  return expanded.filter((entry) => !denied.has(canonicalToolName(entry.name)));
}

/**
 * A Claude Code / Gemini CLI agent (frontmatter + body) as a Cadre raw
 * definition, with rules that map each built field back to the key the
 * author wrote. Fields Cadre has no use for (color, permissionMode, hooks…)
 * are ignored silently.
 */
export function markdownToRaw(
  fm: Record<string, unknown>,
  prompt: string,
  file: string,
  knownTools: readonly string[],
  dialect: Dialect,
): ForeignRaw {
  const notes: SourceNote[] = [];
  const rules: PathRule[] = [
    [['name'], ['name']],
    [['description'], ['description']],
  ];
  const raw: Record<string, unknown> = {};
  const fileName = path.basename(file).replace(/\.md$/i, '');
  raw.name = typeof fm.name === 'string' && fm.name.trim() ? fm.name.trim() : fileName;
  if (raw.name === fileName && fm.name === undefined)
    notes.push({
      path: [],
      message: `no name; using the file name "${fileName}"`,
      severity: 'warning',
    });
  raw.description =
    fm.description === undefined || fm.description === null ? '' : String(fm.description).trim();
  if (raw.description === '')
    notes.push({
      path: ['description'],
      message: 'no description; a parent agent cannot tell when to delegate to it',
      severity: 'warning',
    });
  if (fm.kind !== undefined && fm.kind !== 'local' && fm.kind !== 'remote')
    notes.push({
      path: ['kind'],
      message: `kind must be local or remote, got ${describeValue(fm.kind)}`,
      severity: 'error',
    });
  const remote = fm.kind === 'remote' ? remoteOf(fm, notes, path.dirname(file)) : undefined;
  raw.promptConfig = prompt ? { systemPrompt: prompt } : {};

  const modelConfig: Record<string, unknown> = {};
  if (fm.model !== undefined && fm.model !== null) modelConfig.model = String(fm.model);
  if (fm.temperature !== undefined) modelConfig.temp = fm.temperature;
  if (Object.keys(modelConfig).length > 0) raw.modelConfig = modelConfig;
  rules.push([['modelConfig', 'model'], ['model']], [['modelConfig', 'temp'], ['temperature']]);

  const runConfig: Record<string, unknown> = {};
  const turnsKey = ['max_turns', 'maxTurns'].find((key) => fm[key] !== undefined);
  if (turnsKey) {
    runConfig.max_turns = fm[turnsKey];
    rules.push([['runConfig', 'max_turns'], [turnsKey]]);
  }
  if (fm.timeout_mins !== undefined) runConfig.max_time_minutes = fm.timeout_mins;
  rules.push([['runConfig', 'max_time_minutes'], ['timeout_mins']]);
  if (Object.keys(runConfig).length > 0) raw.runConfig = runConfig;

  if (
    fm.tools !== undefined &&
    fm.tools !== null &&
    typeof fm.tools !== 'string' &&
    !Array.isArray(fm.tools)
  ) {
    notes.push({
      path: ['tools'],
      message: `expected a list of tool names, got ${describeValue(fm.tools)}; no tools granted`,
      severity: 'warning',
    });
  }
  const tools = grantedTools(fm, knownTools, dialect);
  raw.toolConfig = { tools: tools.map((tool) => tool.name) };
  tools.forEach((tool, index) => rules.push([['toolConfig', 'tools', index], tool.path]));
  rules.push([['toolConfig'], ['tools']]);

  const namedServers = mcpServersOf(fm, raw, rules);
  for (const key of CADRE_KEYS) if (fm[key] !== undefined) raw[key] = fm[key];
  return { raw, rules, notes, namedServers, ...(remote ? { remote } : {}) };
}

/** `agent_card_url` (and `auth`) of a Gemini CLI remote agent; an inline `agent_card_json` is not read. */
function remoteOf(
  fm: Record<string, unknown>,
  notes: SourceNote[],
  baseDir: string,
): RemoteAgentConfig | undefined {
  const url = fm.agent_card_url;
  if (typeof url === 'string' && /^https?:\/\//.test(url.trim())) {
    if (fm.auth === undefined || fm.auth === null) return { agentCardUrl: url.trim() };
    const { auth, notes: authNotes } = remoteAuth(fm.auth, baseDir);
    notes.push(...authNotes.map((note) => ({ ...note, path: ['auth', ...note.path] })));
    return { agentCardUrl: url.trim(), ...(auth ? { auth } : {}) };
  }
  notes.push({
    path: [url === undefined ? 'kind' : 'agent_card_url'],
    message:
      url === undefined
        ? 'a remote agent needs agent_card_url (agent_card_json is not read); loaded as a local agent'
        : `agent_card_url must be an http(s) URL, got ${describeValue(url)}; loaded as a local agent`,
    severity: 'warning',
  });
  return undefined;
}

/**
 * `mcpServers` as a mapping (name → server), or Claude Code's list whose
 * entries are a configured server's name (returned, resolved against the
 * project's servers by the caller) or an inline `{ name: server }` mapping.
 */
function mcpServersOf(
  fm: Record<string, unknown>,
  raw: Record<string, unknown>,
  rules: PathRule[],
): NamedServer[] {
  const key = ['mcpServers', 'mcp_servers'].find((k) => fm[k] !== undefined && fm[k] !== null);
  if (!key) return [];
  const value = fm[key];
  rules.push([['mcpServers'], [key]]);
  if (!Array.isArray(value)) {
    raw.mcpServers =
      value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value).map(([name, entry]) => [name, camelServerKeys(entry)]),
          )
        : value;
    return [];
  }
  const inline: Record<string, unknown> = {};
  const named: NamedServer[] = [];
  value.forEach((entry: unknown, index) => {
    if (typeof entry === 'string' && entry.trim())
      named.push({ name: entry.trim(), path: [key, index] });
    else if (entry && typeof entry === 'object')
      for (const [name, server] of Object.entries(entry)) inline[name] = camelServerKeys(server);
  });
  if (Object.keys(inline).length > 0) raw.mcpServers = inline;
  return named;
}
