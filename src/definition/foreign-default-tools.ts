import { DEFAULT_KNOWN_TOOLS } from './tool-names.js';
import type { DefinitionSource } from './types.js';

/**
 * What "no tools field" grants in each tool, as Cadre's names: Claude Code
 * gives a subagent all of its own tools (Read, Write, Edit, Glob, Grep, Bash,
 * WebFetch, WebSearch, TodoWrite; LS where it still has it), Gemini CLI all of
 * its built-ins (read_file, write_file, replace, glob, grep_search,
 * list_directory, run_shell_command, web_fetch, google_web_search,
 * write_todos). Neither has Cadre's connectors (mail, calendar) or code tools,
 * and neither lets a subagent start subagents.
 */
/** The same set for both: each has a built-in for every one of these, and Cadre maps them. */
const CLI_DEFAULTS: readonly string[] = [...DEFAULT_KNOWN_TOOLS, 'web_search'];

const DEFAULTS: Readonly<Record<NonNullable<DefinitionSource['foreign']>, readonly string[]>> = {
  'claude-code': CLI_DEFAULTS,
  'gemini-cli': CLI_DEFAULTS,
  adk: [],
};

/**
 * The tools an agent file with no `tools` field (or `*`) gets: its own
 * tool's default set, as far as this install has them (in the install's
 * order). A default tool this install lacks is left out silently: the author
 * asked for no tool by name.
 */
export function defaultToolsFor(
  dialect: NonNullable<DefinitionSource['foreign']>,
  knownTools: readonly string[],
): string[] {
  const defaults = new Set(DEFAULTS[dialect]);
  return knownTools.filter((tool) => defaults.has(tool));
}
