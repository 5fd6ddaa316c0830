import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinition } from '../../definition/load-definition.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { run } from '../../agents/run-verbs.js';
import { builtinTools } from '../../tools/builtin/index.js';
import type { McpServerConfig } from '../../definition/mcp-server-config.js';

const SERVER = fileURLToPath(new URL('./testing/notes-mcp-server.mjs', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-grants-'));
  await mkdir(path.join(dir, '.gemini/agents'), { recursive: true });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The notes server over stdio, as a YAML mapping indented under its name. */
const serverLines = (extra: string[] = []) => [
  `    command: ${JSON.stringify(process.execPath)}`,
  `    args: [${JSON.stringify(SERVER)}, --stdio]`,
  ...extra.map((line) => `    ${line}`),
];

/** A Gemini CLI agent file (under .gemini/agents, so it is read as Gemini's). */
async function geminiAgent(
  name: string,
  tools: string[],
  servers: Record<string, string[]>,
): Promise<string> {
  const file = path.join(dir, '.gemini/agents', `${name}.md`);
  await writeFile(
    file,
    [
      '---',
      `name: ${name}`,
      'description: Keeps notes.',
      `tools: [${tools.join(', ')}]`,
      'mcpServers:',
      ...Object.entries(servers).flatMap(([server, extra]) => [
        `  ${server}:`,
        ...serverLines(extra),
      ]),
      '---',
      'You keep notes.',
      '',
    ].join('\n'),
  );
  return file;
}

/** Runs one turn and returns the MCP tool names the model was offered. */
async function offered(
  file: string,
  project: Record<string, McpServerConfig> = {},
): Promise<string[]> {
  const { definition } = await loadDefinition(file, {
    cwd: dir,
    home: dir,
    mcpServers: Object.keys(project),
  });
  const model = new ScriptedModel(() => ({ parts: [{ text: 'ok' }] }));
  const result = await run(definition, {
    model,
    workspace: dir,
    inputs: { prompt: 'go' },
    tools: builtinTools,
    mcpServers: project,
  });
  expect(result.terminate_reason).toBe('GOAL');
  return (model.requests[0]?.tools ?? []).map((tool) => tool.name).filter((n) => n.includes('__'));
}

describe('Gemini CLI MCP grants are exactly what the file says (real servers over stdio)', () => {
  it('mcp_<server>_<tool> grants that one tool, not the whole server', async () => {
    const file = await geminiAgent('reader', ['read_file', 'mcp_notes_list_notes'], { notes: [] });
    const { definition } = await loadDefinition(file, { cwd: dir, home: dir });
    expect(definition.toolConfig.tools).toEqual(['read_file', 'notes__list_notes']);
    expect(await offered(file)).toEqual(['notes__list_notes']);
  });

  it('a server name holding "_" is read against the declared servers, longest first', async () => {
    const project: Record<string, McpServerConfig> = {
      my: { transport: 'stdio', command: process.execPath, args: [SERVER, '--stdio'], env: {} },
    };
    const file = await geminiAgent('underscored', ['mcp_my_notes_whoami'], { my_notes: [] });
    const { definition } = await loadDefinition(file, { cwd: dir, home: dir, mcpServers: ['my'] });
    expect(definition.toolConfig.tools).toEqual(['my_notes__whoami']);
    expect(await offered(file, project)).toEqual(['my_notes__whoami']);
  });

  it('include_tools bounds the server even when the list grants it whole; exclude_tools removes', async () => {
    const file = await geminiAgent('bounded', ['mcp__notes', 'mcp_notes_add_note'], {
      notes: ['include_tools: [list_notes, add_note, whoami]', 'exclude_tools: [whoami]'],
    });
    expect(await offered(file)).toEqual(['notes__add_note', 'notes__list_notes']);
  });

  it('camelCase includeTools / excludeTools on a server granted whole by omission', async () => {
    const excluded = await geminiAgent('no-explode', ['read_file'], {
      notes: ['excludeTools: [explode, add_note]'],
    });
    const names = await offered(excluded);
    expect(names).toContain('notes__list_notes');
    expect(names).not.toContain('notes__explode');
    expect(names).not.toContain('notes__add_note');
    const included = await geminiAgent('only-list', ['read_file', 'mcp_notes_add_note'], {
      notes: ['includeTools: [list_notes]'],
    });
    // The list names add_note, but the server's include list does not: nothing of it is offered.
    expect(await offered(included)).toEqual([]);
  });
});
