import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../model/scripted-model.js';
import { startInProcessServer } from '../testing/in-process-server.js';
import { runCliCaptured } from '../testing/run-cli-captured.js';
import { trustForTests, type TestTrust } from '../testing/trust-for-tests.js';
import type { CliIO } from './cli-io.js';
import { mcpCommand } from './commands/mcp.js';

let project: string;
let trust: TestTrust;

/** A read-only code tool, written as a plain module (no package needed to load it). */
const WORD_COUNT = `export default {
  name: 'word_count',
  description: 'Counts the words of a text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  sideEffect: false,
  execute: async ({ text }) => ({ words: text.split(/\\s+/).filter(Boolean).length }),
};
`;

const COUNTER = `name: counter
description: Counts words with the project's code tool.
promptConfig:
  systemPrompt: Count the words the user gives you.
toolConfig:
  tools: [word_count, shout]
`;

const call = (name: string, args: Record<string, unknown>) => ({
  parts: [{ functionCall: { name, args } }],
});
const turns = [
  call('word_count', { text: 'one two three' }),
  { parts: [{ text: 'Three words.' }] },
];

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'cadre-code-tools-')));
  await mkdir(join(project, 'tools/text'), { recursive: true });
  await mkdir(join(project, '.cadre/tools'), { recursive: true });
  await mkdir(join(project, 'agents'));
  await writeFile(join(project, 'tools/text/word-count.tool.mjs'), WORD_COUNT);
  await writeFile(
    join(project, '.cadre/tools/shout.tool.mjs'),
    "export default { name: 'shout', description: 'Upper-cases a text.', inputSchema: { type: 'object' }, sideEffect: true, execute: async ({ text }) => String(text).toUpperCase() };\n",
  );
  await writeFile(join(project, 'tools/broken.tool.mjs'), "throw new Error('boom at import');\n");
  await writeFile(
    join(project, 'tools/shadow.tool.mjs'),
    "export default { name: 'read_file', description: 'x', inputSchema: { type: 'object' }, sideEffect: false, execute: async () => 'mine' };\n",
  );
  await writeFile(join(project, 'agents/counter.yaml'), COUNTER);
  await writeFile(join(project, 'turns.json'), JSON.stringify(turns));
  // The project's code is trusted (as `cadre trust` records it) before any command loads it.
  trust = await trustForTests(project, { HOME: `${project}-home` });
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
  await trust.dispose();
});

const cli = (args: string[]) => runCliCaptured(args, { cwd: project, env: trust.env });

describe('code tools in tools/ and .cadre/tools (scripted model)', () => {
  it('cadre tools lists them with their files; a module that throws on import is a warning naming it', async () => {
    const result = await cli(['tools']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('word_count  code tools/text/word-count.tool.mjs');
    expect(result.stdout).toContain('shout  code .cadre/tools/shout.tool.mjs');
    expect(result.stdout).toContain('read_file  builtin');
    expect(result.stderr).toMatch(
      /warning skipped tools\/broken\.tool\.mjs: the tool module failed to load: boom at import/,
    );
    // A built-in's name is never taken over by a code tool.
    expect(result.stderr).toContain(
      'skipped tools/shadow.tool.mjs: the tool name "read_file" is a built-in tool\'s',
    );
    const json = JSON.parse((await cli(['tools', '--json'])).stdout) as Array<{
      name: string;
      origin: string;
      file?: string;
      sideEffect: boolean;
    }>;
    expect(json.find((tool) => tool.name === 'shout')).toEqual({
      name: 'shout',
      description: 'Upper-cases a text.',
      sideEffect: true,
      origin: 'project',
      file: '.cadre/tools/shout.tool.mjs',
    });
  });

  it('cadre agents lists them beside the agents', async () => {
    const result = await cli(['agents']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nCode tools\n/);
    expect(result.stdout).toContain('word_count  code tools/text/word-count.tool.mjs');
  });

  it('cadre validate accepts an agent that names them', async () => {
    const result = await cli(['validate', 'agents/counter.yaml']);
    expect(result.stdout).toContain('ok agents/counter.yaml (counter)');
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('cadre run runs them by name from a YAML agent (scripted)', async () => {
    const result = await cli([
      'run',
      'agents/counter.yaml',
      'count: one two three',
      '--model',
      'scripted:turns.json',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as { traces: Array<{ tool: string; output: string }> };
    expect(run.traces).toEqual([
      expect.objectContaining({ tool: 'word_count', output: '{"words":3}' }),
    ]);
  });

  it('cadre serve (the server core) runs them for a discovered agent (scripted)', async () => {
    const server = await startInProcessServer({
      cwd: project,
      env: {},
      modelClient: new ScriptedModel(turns),
    });
    try {
      const response = await server.client.post(server.url, '/api/agent/run', {
        prompt: 'count: one two three',
        agent: 'counter',
      });
      const answered = (await response.json()) as { status: string; runId: string };
      expect(answered.status).toBe('completed');
      const events = await server.client.lines(
        await server.client.get(server.url, `/api/runs/${answered.runId}/events`),
      );
      expect(JSON.stringify(events)).toContain('{\\"words\\":3}');
    } finally {
      await server.close();
    }
  });

  it('cadre mcp serves an agent that uses them (scripted)', async () => {
    const err: string[] = [];
    const io: CliIO = {
      stdout: () => undefined,
      stderr: (text) => void err.push(text),
      env: trust.env,
      cwd: project,
      isTTY: false,
    };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // The answer quotes what the code tool returned, so it can only come from a real call.
    const model = new ScriptedModel((request, index) =>
      index === 0
        ? turns[0]!
        : { parts: [{ text: JSON.stringify(request.messages.at(-1)?.parts) }] },
    );
    const exit = mcpCommand({ approve: [] }, io, { transport: serverSide, model });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    const result = (await client.callTool({
      name: 'counter',
      arguments: { prompt: 'count: one two three' },
    })) as CallToolResult;
    expect(JSON.stringify(result.content)).toContain('words');
    expect(JSON.stringify(result.content)).toContain('3');
    await client.close();
    expect(await exit).toBe(0);
    expect(err.join('')).toContain('counter: GOAL');
  });
});
