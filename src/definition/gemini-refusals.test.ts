import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-gemini-refusals-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(file: string, lines: string[]) {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), lines.join('\n'));
  return loadDefinition(path.join(dir, file), { cwd: dir, home: path.join(dir, 'home') });
}

/** "line path: message" of each warning Gemini CLI's own loader would turn into a refusal. */
const refusals = (warnings: readonly { line?: number; path: string; message: string }[]) =>
  warnings
    .filter((w) => w.message.startsWith('Gemini CLI refuses'))
    .map((w) => `${w.line} ${w.path}: ${w.message.replace('Gemini CLI refuses this file: ', '')}`);

describe("Gemini CLI files warn at each point Gemini CLI's strict loader refuses", () => {
  test('unknown keys, a non-slug name and Claude tool names each warn at their own line', async () => {
    const { definition, warnings } = await load('.gemini/agents/reviewer.md', [
      '---', // 1
      'name: Code Reviewer', // 2
      'description: Reviews code.', // 3
      'color: blue', // 4
      'version: 1.2', // 5
      'generated-from: templates/reviewer', // 6
      'hint: be kind', // 7
      'maxTurns: 5', // 8
      'tools:', // 9
      '  - Read', // 10
      '  - grep_search', // 11
      '  - Edit', // 12
      '---',
      'You review.',
    ]);
    // Cadre still runs it.
    expect(definition.toolConfig.tools).toEqual(['read_file', 'grep', 'edit_file']);
    expect(definition.runConfig).toEqual({ max_turns: 5 });
    expect(refusals(warnings)).toEqual([
      '2 name: name "Code Reviewer" must be lower-case letters, digits, - and _',
      '4 color: unknown key "color" (Cadre ignores it)',
      '5 version: unknown key "version" (Cadre ignores it)',
      '6 generated-from: unknown key "generated-from" (Cadre ignores it)',
      '7 hint: unknown key "hint" (Cadre ignores it)',
      '8 maxTurns: unknown key "maxTurns" (Cadre reads it)',
      '10 tools.0: "Read" is not a Gemini CLI tool name (Gemini CLI calls it read_file)',
      '12 tools.2: "Edit" is not a Gemini CLI tool name (Gemini CLI calls it replace)',
    ]);
  });

  test('tools written as a string is refused at the tools line', async () => {
    const { definition, warnings } = await load('.gemini/agents/s.md', [
      '---',
      'name: s',
      'description: d',
      'tools: read_file, grep_search',
      '---',
      'Go.',
    ]);
    expect(definition.toolConfig.tools).toEqual(['read_file', 'grep']);
    expect(refusals(warnings)).toEqual([
      '4 tools: tools must be a list (tools: [read_file, grep_search]), not a string',
    ]);
  });

  test('a remote agent may not carry local keys', async () => {
    const { warnings } = await load('.gemini/agents/r.md', [
      '---',
      'kind: remote',
      'name: r',
      'agent_card_url: http://127.0.0.1:9/.well-known/agent-card.json',
      'tools: [read_file]',
      '---',
    ]);
    expect(refusals(warnings)).toEqual(['5 tools: unknown key "tools" (Cadre reads it)']);
  });

  test('no frontmatter says Gemini CLI refuses it', async () => {
    const { warnings } = await load('.gemini/agents/bare.md', ['# Bare', 'Just a prompt.']);
    expect(warnings.map((w) => `${w.line} ${w.message}`)).toContain(
      '1 no frontmatter; the whole file is the system prompt (Gemini CLI refuses a file without it)',
    );
  });

  test('a file Gemini CLI accepts (wildcards, MCP names, its own keys) gets no refusal', async () => {
    const { warnings } = await load('.gemini/agents/ok.md', [
      '---',
      'kind: local',
      'name: ok_agent-1',
      'description: Fine.',
      'display_name: OK',
      'tools: [read_file, search_file_content, run_shell_command, "mcp_github_*", mcp_db_query, "*"]',
      'model: gemini-2.5-pro',
      'temperature: 0.2',
      'max_turns: 10',
      'timeout_mins: 5',
      '---',
      'Go.',
    ]);
    expect(refusals(warnings)).toEqual([]);
  });

  test('Claude Code files are not held to Gemini CLI’s schema', async () => {
    const { warnings } = await load('.claude/agents/c.md', [
      '---',
      'name: c',
      'description: d',
      'color: blue',
      'tools: Read, Grep',
      '---',
      'Go.',
    ]);
    expect(refusals(warnings)).toEqual([]);
  });
});
