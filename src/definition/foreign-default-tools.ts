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
const DEFAULTS: Readonly<Record<NonNullable<DefinitionSource['foreign']>, readonly string[]>> = {
  'claude-code': [
    'ls',
    'read_file',
    'glob',
    'grep',
    'write_file',
    'edit_file',
    'shell',
    'web_fetch',
    'web_search',
    'todo_write',
  ],
  'gemini-cli': [
    'ls',
    'read_file',
    'glob',
    'grep',
    'write_file',
    'edit_file',
    'shell',
    'web_fetch',
    'web_search',
    'todo_write',
  ],
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
