import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';

const SERVER = fileURLToPath(
  new URL('../mcp/client/testing/notes-mcp-server.mjs', import.meta.url),
);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-approve-'));
  await writeFile(
    join(dir, 'keeper.yaml'),
    [
      'name: keeper',
      'description: Keeps notes.',
      'mcpServers:',
      '  notes:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(SERVER)}, --stdio]`,
      'toolConfig:',
      '  tools: [read_file, notes__add_note, notes__list_notes]',
      '',
    ].join('\n'),
  );
  // Scripted model: add a note (a side effect: no readOnlyHint), then stop.
  await writeFile(
    join(dir, 'turns.json'),
    JSON.stringify([
      { parts: [{ functionCall: { name: 'notes__add_note', args: { text: 'milk' } } }] },
      { parts: [{ text: 'done' }] },
    ]),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (approve: string[]) =>
  runCliCaptured(
    [
      'run',
      'keeper.yaml',
      'note milk',
      '--model',
      `scripted:${join(dir, 'turns.json')}`,
      '--json',
      '--quiet',
      // keeper.yaml starts its MCP server by a command: trusted for this run.
      '--trust-project',
      ...approve.flatMap((name) => ['--approve', name]),
    ],
    { cwd: dir, env: { HOME: `${dir}-home` } },
  );

const firstOutput = (stdout: string): string =>
  String((JSON.parse(stdout) as { traces: Array<{ output: unknown }> }).traces[0]?.output);

describe('cadre run --approve: the spellings tool lists accept, and nothing that matches no tool', () => {
  it('without --approve (and no terminal) the MCP side effect is not run, and the run exits 3', async () => {
    const result = await run([]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/--approve notes__add_note/);
    expect(firstOutput(result.stdout)).not.toContain('added note');
  });

  it.each([
    'mcp__notes__add_note',
    'notes__add_note',
    'mcp_notes_add_note',
    'notes__*',
    'mcp__notes',
    'notes_*',
    'all',
  ])('--approve %s approves notes__add_note', async (name) => {
    const result = await run([name]);
    expect(result.code, result.stderr).toBe(0);
    expect(firstOutput(result.stdout)).toBe('added note 1');
  });

  it.each([
    ['nosuchtool', 'nosuchtool'],
    ['Write', 'Write'],
    ['mcp__notes__whoami', 'mcp__notes__whoami'],
    ['mcp__elsewhere__x', 'mcp__elsewhere__x'],
    ['gmail_*', 'gmail_*'],
  ])('--approve %s matches no tool of the agent: exit 2 naming it', async (name, named) => {
    const result = await run(['read_file', name]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--approve "${named}"`);
    expect(result.stderr).toContain('keeper');
    expect(result.stderr).not.toContain('"read_file"');
  });
});
