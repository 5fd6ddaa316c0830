import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../testing/fake-gemini-server.js';
import type { FakeServer, FakeTurn } from '../testing/fake-turn.js';
import { runCliCaptured } from '../testing/run-cli-captured.js';

const NOTES_SERVER = fileURLToPath(
  new URL('../mcp/client/testing/notes-mcp-server.mjs', import.meta.url),
);

let workspace: string;
let server: FakeServer | undefined;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'cadre-eco-'));
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  await writeFile(join(workspace, 'notes.txt'), 'untracked\n');
  await writeFile(
    join(workspace, '.mcp.json'),
    JSON.stringify({
      mcpServers: { notes: { command: process.execPath, args: [NOTES_SERVER, '--stdio'] } },
    }),
  );
  // Written the way Claude Code subagent files are: Bash narrowed to git, a project MCP server.
  await writeFile(
    join(workspace, 'repo-scribe.md'),
    [
      '---',
      'name: repo-scribe',
      'description: Looks at the repository and keeps notes about it.',
      'tools: Read, Bash(git:*), mcp__notes__add_note, mcp__notes__list_notes',
      'model: sonnet',
      '---',
      'You look at the repository with git and record what you find as notes.',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await server?.close();
  await rm(workspace, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown>): FakeTurn => ({
  parts: [{ functionCall: { name, args } }],
});

describe('a Claude Code agent with Bash(git:*) and an MCP server (fake Gemini server, scripted responses)', () => {
  it('runs git, refuses what is outside git, and uses the MCP tools', async () => {
    server = await startFakeGemini({
      turns: [
        call('shell', { command: 'git status --short' }),
        call('shell', { command: 'rm -rf notes.txt' }),
        call('notes__add_note', { text: 'notes.txt is untracked' }),
        call('notes__list_notes', {}),
        { parts: [{ text: 'Recorded: notes.txt is untracked.' }] },
      ],
    });
    const run = await runCliCaptured(
      [
        'run',
        'repo-scribe.md',
        'Survey the repo',
        // The agent's MCP server starts a command: trusted for this run.
        '--trust-project',
        '--approve',
        'shell',
        '--approve',
        'notes__add_note',
        // The server's readOnlyHint is not trusted: its list asks too.
        '--approve',
        'notes__list_notes',
      ],
      {
        cwd: workspace,
        env: {
          GEMINI_API_KEY: 'test-key',
          GOOGLE_GEMINI_BASE_URL: server.baseUrl,
          PATH: process.env.PATH,
        },
      },
    );
    expect(run.stderr).not.toMatch(/not available in Cadre/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Recorded: notes.txt is untracked.\n');
    type Body = {
      contents: { parts: { functionResponse?: { name: string; response: unknown } }[] }[];
    };
    const responses = server.requests
      .flatMap((r) => (r.body as Body).contents.at(-1)?.parts ?? [])
      .flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
    const byName = (name: string) =>
      responses.filter((r) => r.name === name).map((r) => r.response);
    const [status, refused] = byName('shell') as [
      { output: { stdout: string; exit_code: number } },
      { error: string },
    ];
    expect(status.output.exit_code).toBe(0);
    expect(status.output.stdout).toContain('?? notes.txt\n');
    expect(refused.error).toMatch(
      /^Refused: the command "rm -rf notes.txt" is outside the allowed commands \(git:\*\)/,
    );
    expect(byName('notes__list_notes')).toEqual([
      { output: { notes: ['notes.txt is untracked'], text: 'notes.txt is untracked' } },
    ]);
    // The refused command never ran.
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('untracked\n');
  });
});
