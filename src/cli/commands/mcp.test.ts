import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { consoleToStderr, mcpCommand } from './mcp.js';

let project: string;

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'cadre-mcp-cli-')));
  await mkdir(join(project, '.cadre/agents'), { recursive: true });
  await writeFile(
    join(project, '.cadre/agents/echo.md'),
    '---\nname: echo\ndescription: Says it back.\n---\nRepeat what the user says.\n',
  );
  await writeFile(
    join(project, '.cadre/agents/scribe.md'),
    '---\nname: scribe\ndescription: Writes files.\ntools: Write\n---\nWrite what you are asked to.\n',
  );
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

function testIO(): CliIO & { out: string[]; err: string[]; interrupt: () => void } {
  const out: string[] = [];
  const err: string[] = [];
  const handlers = new Set<() => void>();
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env: { HOME: `${project}-home` },
    cwd: project,
    isTTY: false,
    onInterrupt: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    interrupt: () => handlers.forEach((h) => h()),
  };
}

describe('cadre mcp keeps stdout for the protocol', () => {
  it('sends console output to stderr while it serves, and puts console back after', () => {
    const written: unknown[][] = [];
    const saved = { log: console.log, error: console.error };
    console.error = (...args: unknown[]) => void written.push(args);
    try {
      const restore = consoleToStderr();
      console.log('from a library');
      console.info('info too');
      restore();
      expect(written).toEqual([['from a library'], ['info too']]);
      expect(console.log).toBe(saved.log);
    } finally {
      console.error = saved.error;
    }
  });
});

describe('cadre mcp (the command over an in-memory transport)', () => {
  it("serves the project's agents, logs on stderr only, and ends when the client leaves", async () => {
    const io = testIO();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const model = new ScriptedModel([{ parts: [{ text: 'You said hi.' }] }]);
    const exit = mcpCommand({ approve: [] }, io, { transport: serverSide, model });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);

    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'react', 'deep_research']));
    const result = (await client.callTool({
      name: 'echo',
      arguments: { prompt: 'hi' },
    })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'You said hi.' }]);

    await client.close();
    expect(await exit).toBe(EXIT.ok);
    expect(io.out).toEqual([]);
    const log = io.err.join('');
    expect(log).toMatch(/Cadre MCP server: \d+ agent\(s\) \(.*echo.*\); workspace /);
    expect(log).toContain('▶ echo: Running echo');
    expect(log).toContain('■ echo: GOAL');
  });

  it('serves the agents of --workspace DIR, not of the folder it was started in', async () => {
    const elsewhere = await realpath(await mkdtemp(join(tmpdir(), 'cadre-mcp-elsewhere-')));
    try {
      // HOME too: the project's agents must not come in as the user's own.
      const io = { ...testIO(), cwd: elsewhere, env: { HOME: elsewhere } };
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const exit = mcpCommand({ approve: [], workspace: project }, io, {
        transport: serverSide,
        model: new ScriptedModel([]),
      });
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(clientSide);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('echo');
      await client.close();
      expect(await exit).toBe(EXIT.ok);
      expect(io.err.join('')).toContain(`workspace ${project}`);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('stops on Ctrl-C', async () => {
    const io = testIO();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const exit = mcpCommand({ approve: [] }, io, {
      transport: serverSide,
      model: new ScriptedModel([]),
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    io.interrupt();
    expect(await exit).toBe(EXIT.ok);
  });

  it('refuses to start on a bad workspace or policy, before serving anything', async () => {
    const io = testIO();
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    expect(
      await mcpCommand({ approve: [], workspace: 'nowhere' }, io, { transport: serverSide }),
    ).toBe(EXIT.setup);
    expect(io.err.join('')).toMatch(/Workspace folder not found: nowhere/);
    const again = testIO();
    expect(
      await mcpCommand({ approve: [], policy: 'missing-policy.yaml' }, again, {
        transport: serverSide,
      }),
    ).not.toBe(EXIT.ok);
    expect(again.err.join('')).toMatch(/missing-policy\.yaml/);
    expect([...io.out, ...again.out]).toEqual([]);
  });
});

describe('cadre mcp --approve reads names like cadre run --approve', () => {
  it('takes a tool by any spelling a tool list takes (Claude Code `Write`): the call runs unasked', async () => {
    const io = testIO();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const model = new ScriptedModel([
      {
        parts: [
          { functionCall: { name: 'write_file', args: { path: 'spelled.txt', content: 'ok' } } },
        ],
      },
      { parts: [{ text: 'Written.' }] },
    ]);
    const exit = mcpCommand({ approve: ['Write'] }, io, { transport: serverSide, model });
    // No elicitation: an unapproved call would be refused.
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    await client.callTool({ name: 'scribe', arguments: { prompt: 'write it' } });
    await client.close();
    expect(await exit).toBe(EXIT.ok);
    expect(await readFile(join(project, 'spelled.txt'), 'utf8')).toBe('ok');
  });

  it('exits 2 naming an --approve value that matches no tool, before serving anything', async () => {
    const io = testIO();
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    const exit = await mcpCommand({ approve: ['write_file', 'wrte_file'] }, io, {
      transport: serverSide,
      model: new ScriptedModel([]),
    });
    expect(exit).toBe(2);
    const log = io.err.join('');
    expect(log).toContain('"wrte_file"');
    expect(log).not.toContain('"write_file"');
    expect(io.out).toEqual([]);
  });
});
