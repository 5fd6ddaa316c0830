import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-named-mcp-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), text);
}

const AGENT = [
  '---',
  'name: reviewer',
  'description: Reviews pull requests.',
  'tools: Read, Grep',
  'mcpServers:',
  '  - github',
  '  - nowhere',
  '---',
  'You review.',
  '',
].join('\n');

const load = (file: string, mcpServers: string[] = []) =>
  loadDefinition(path.join(dir, file), {
    cwd: dir,
    home: path.join(dir, 'empty-home'),
    mcpServers,
  });

describe('Claude Code `mcpServers: [name]` names a configured server', () => {
  test(".claude/settings.json's server is started and all its tools granted, whatever tools lists", async () => {
    await write(
      'p1/.claude/settings.json',
      JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }),
    );
    await write('p1/.claude/agents/reviewer.md', AGENT);
    const { definition, warnings } = await load('p1/.claude/agents/reviewer.md');
    expect(definition.toolConfig.tools).toEqual(['read_file', 'grep', 'github__*']);
    expect(definition.mcpServers).toEqual({
      github: { transport: 'stdio', command: 'gh-mcp', args: [], env: {} },
    });
    // No phantom tool: the one warning is about the unknown name, at its own list entry.
    expect(warnings.map((w) => `${w.line}:${w.column} ${w.path}: ${w.message}`)).toEqual([
      '7:5 mcpServers.1: MCP server "nowhere" is not configured; configured: github; the agent loads without it',
    ]);
  });

  test("the project's .mcp.json server (LoadOptions.mcpServers) satisfies the name", async () => {
    await write('p2/.claude/agents/reviewer.md', AGENT);
    const { definition, warnings } = await load('p2/.claude/agents/reviewer.md', ['github']);
    expect(definition.toolConfig.tools).toEqual(['read_file', 'grep', 'github__*']);
    expect(definition.mcpServers).toBeUndefined();
    expect(warnings.map((w) => [w.line, w.path])).toEqual([[7, 'mcpServers.1']]);
  });

  test('with no server configured anywhere, each name warns at its own line and grants nothing', async () => {
    await write('p3/.claude/agents/reviewer.md', AGENT);
    const { definition, warnings } = await load('p3/.claude/agents/reviewer.md');
    expect(definition.toolConfig.tools).toEqual(['read_file', 'grep']);
    expect(warnings.map((w) => [w.line, w.path])).toEqual([
      [6, 'mcpServers.0'],
      [7, 'mcpServers.1'],
    ]);
    expect(warnings[0]?.message).toMatch(/^MCP server "github" is not configured \(.*list none\)/);
  });
});
