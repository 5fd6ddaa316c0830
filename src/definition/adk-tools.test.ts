import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { run } from '../agents/run-verbs.js';
import { toolAliasesOf } from '../tools/tool-aliases.js';
import { defineTool } from '../tools/types.js';
import type { FileGate } from '../contracts/file-gate.js';
import { loadDefinition } from './load-definition.js';

const NOTES_SERVER = fileURLToPath(
  new URL('../mcp/client/testing/notes-mcp-server.mjs', import.meta.url),
);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-adk-tools-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a small ADK project (file name → YAML lines); returns its root_agent.yaml. */
async function project(name: string, files: Record<string, string[]>): Promise<string> {
  const root = path.join(dir, name);
  for (const [file, lines] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), `${lines.join('\n')}\n`);
  }
  return path.join(root, 'root_agent.yaml');
}

const llm = (name: string, extra: string[] = []) => [
  `name: ${name}`,
  'model: gemini-2.5-flash',
  `description: The ${name}.`,
  `instruction: You are ${name}.`,
  ...extra,
];

const lines = (warnings: readonly { line?: number; path: string; message: string }[]) =>
  warnings.map((w) => `${w.line} ${w.path}: ${w.message}`);

describe('ADK AgentTool: the referenced agent file is an agent the agent calls as a tool', () => {
  test('both AgentTools of the tool_agent_tool_config shape load and run (scripted model)', async () => {
    const file = await project('agent-tool', {
      'root_agent.yaml': llm('root', [
        'tools:',
        '  - name: AgentTool',
        '    args:',
        '      agent:',
        '        config_path: summarizer.yaml',
        '      skip_summarization: False',
        '  - name: AgentTool',
        '    args:',
        '      agent:',
        '        config_path: web_search_agent.yaml',
      ]),
      'summarizer.yaml': llm('summarizer'),
      'web_search_agent.yaml': llm('web_search_agent'),
    });
    const { definition, warnings } = await loadDefinition(file, { cwd: dir });
    expect(definition.toolConfig.tools).toEqual(['summarizer', 'web_search_agent']);
    expect(definition.subagents?.map((a) => a.name)).toEqual(['summarizer', 'web_search_agent']);
    expect(lines(warnings)).toEqual([]);

    const agentOf = (r: ModelRequest) => /You are (\w+)/.exec(r.systemInstruction ?? '')?.[1];
    const answered = (r: ModelRequest) =>
      (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (agentOf(r) === 'summarizer') return { parts: [{ text: 'short version' }] };
      return answered(r)
        ? { parts: [{ text: 'root got the summary' }] }
        : { parts: [{ functionCall: { name: 'summarizer', args: { prompt: 'sum up' } } }] };
    });
    const result = await run(definition, { model, workspace: dir, inputs: { prompt: 'go' } });
    expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual(
      expect.arrayContaining(['summarizer', 'web_search_agent']),
    );
    expect(model.requests.some((r) => agentOf(r) === 'summarizer')).toBe(true);
    expect(result.final_message).toBe('root got the summary');
  });

  test('a missing config_path file is an error at its line; Python code is a warning', async () => {
    const missing = await project('agent-tool-missing', {
      'root_agent.yaml': llm('root', [
        'tools:', // 5
        '  - name: AgentTool',
        '    args:',
        '      agent:',
        '        config_path: nowhere.yaml', // 9
      ]),
    });
    const error = await loadDefinition(missing, { cwd: dir }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(
      /9:\d+ .*nowhere\.yaml could not be loaded: file not found/,
    );
    const code = await project('agent-tool-code', {
      'root_agent.yaml': llm('root', [
        'tools:',
        '  - name: AgentTool',
        '    args:',
        '      agent:',
        '        code: my_pkg.agents.helper', // 9
      ]),
    });
    const { definition, warnings } = await loadDefinition(code, { cwd: dir });
    expect(definition.toolConfig.tools).toEqual([]);
    expect(lines(warnings)).toEqual([
      '9 tools.0.args.agent.code: AgentTool agent my_pkg.agents.helper is Python code, which Cadre cannot import; left out',
    ]);
  });
});

describe("ADK MCPToolset: the agent's own MCP servers", () => {
  const stdio = [
    'tools:',
    '  - name: MCPToolset',
    '    args:',
    '      stdio_server_params:',
    '        command: npx',
    '        args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]',
    '      tool_filter: [read_file, list_directory]',
    '  - name: McpToolset',
    '    args:',
    '      streamable_http_connection_params:',
    '        url: http://127.0.0.1:9/mcp',
    '        headers: { Authorization: "Bearer x" }',
    '      tool_name_prefix: remote',
  ];

  test('stdio and streamable HTTP load as servers; tool_filter grants only those tools', async () => {
    const file = await project('toolset', { 'root_agent.yaml': llm('root', stdio) });
    const { definition, warnings } = await loadDefinition(file, { cwd: dir });
    expect(definition.mcpServers).toEqual({
      toolset: {
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: {},
      },
      remote: {
        transport: 'http',
        url: 'http://127.0.0.1:9/mcp',
        headers: { Authorization: 'Bearer x' },
      },
    });
    expect(definition.toolConfig.tools).toEqual([
      'toolset__read_file',
      'toolset__list_directory',
      'remote__*',
    ]);
    expect(lines(warnings)).toEqual([]);
  });

  test('an untrusted file cannot start the stdio command: the server and its tools are left out', async () => {
    const file = await project('toolset-untrusted', { 'root_agent.yaml': llm('root', stdio) });
    const asked: string[] = [];
    const gate: FileGate = {
      allows: (_file, kind, detail) => {
        asked.push(`${kind}: ${(detail ?? []).join(' | ')}`);
        return Promise.resolve(false);
      },
    };
    const { definition, warnings } = await loadDefinition(file, { cwd: dir, gate });
    expect(asked).toEqual([
      'MCP commands: toolset: npx -y @modelcontextprotocol/server-filesystem /tmp',
    ]);
    expect(Object.keys(definition.mcpServers ?? {})).toEqual(['remote']);
    expect(definition.toolConfig.tools).toEqual(['remote__*']);
    expect(lines(warnings).join('\n')).toMatch(/MCP server "toolset" is not started/);
  });

  test("sse_connection_params loads as an SSE server, as `.mcp.json`'s `type: sse` does, with its read timeout", async () => {
    const file = await project('toolset-sse', {
      'root_agent.yaml': llm('root', [
        'tools:',
        '  - name: MCPToolset',
        '    args:',
        '      sse_connection_params:',
        '        url: http://127.0.0.1:9/events', // no `/sse` ending: the transport comes from the key
        '        headers: { Authorization: "Bearer x" }',
        '        timeout: 5',
        '        sse_read_timeout: 120',
        '      tool_name_prefix: events',
      ]),
    });
    const { definition, warnings } = await loadDefinition(file, { cwd: dir });
    expect(definition.mcpServers).toEqual({
      events: {
        transport: 'sse',
        url: 'http://127.0.0.1:9/events',
        headers: { Authorization: 'Bearer x' },
        timeoutMs: 120_000,
      },
    });
    expect(definition.toolConfig.tools).toEqual(['events__*']);
    expect(lines(warnings)).toEqual([]);
  });

  test('an sse_connection_params toolset connects to an HTTP+SSE MCP server on loopback and its tool answers (scripted model)', async () => {
    const server = spawn(process.execPath, [NOTES_SERVER, '--sse'], {
      env: { ...process.env, NOTES_TOKEN: 'tok-sse' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      });
      const file = await project('toolset-sse-live', {
        'root_agent.yaml': llm('root', [
          'tools:',
          '  - name: MCPToolset',
          '    args:',
          '      sse_connection_params:',
          `        url: http://127.0.0.1:${port}/sse`,
          '        headers: { Authorization: "Bearer tok-sse" }',
          '      tool_name_prefix: notes',
          '      tool_filter: [add_note]',
        ]),
      });
      const { definition } = await loadDefinition(file, { cwd: dir });
      const model = new ScriptedModel((request: ModelRequest): ScriptedTurn => {
        const answer = request.messages.at(-1)?.parts.find((p) => p.kind === 'function_response');
        return answer
          ? { parts: [{ text: JSON.stringify(answer.response) }] }
          : { parts: [{ functionCall: { name: 'notes__add_note', args: { text: 'over SSE' } } }] };
      });
      const result = await run(definition, {
        model,
        workspace: dir,
        inputs: { prompt: 'Note it.' },
        confirm: () => Promise.resolve({ kind: 'approve' }),
      });
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.final_message).toContain('added note 1');
    } finally {
      server.kill();
    }
  }, 30_000);

  test('an SSE toolset without a url, and one with no connection, are warnings at their line; nothing is started', async () => {
    const file = await project('toolset-bad', {
      'root_agent.yaml': llm('root', [
        'tools:', // 5
        '  - name: MCPToolset',
        '    args:',
        '      sse_connection_params:', // 8
        '        headers: { Authorization: "Bearer x" }',
        '  - name: MCPToolset', // 10
      ]),
    });
    const { definition, warnings } = await loadDefinition(file, { cwd: dir });
    expect(definition.mcpServers).toBeUndefined();
    expect(definition.toolConfig.tools).toEqual([]);
    expect(lines(warnings)).toEqual([
      '9 tools.0.args.sse_connection_params: sse_connection_params needs a url, got a mapping; left out',
      '10 tools.1.name: MCPToolset needs exactly one of stdio_server_params, stdio_connection_params, sse_connection_params, streamable_http_connection_params (ADK refuses it too); left out',
    ]);
  });
});

describe('ADK Python tool paths: a code tool stands for one by its name or a declared alias', () => {
  const tools = ['tools:', '  - name: agents.studio_tools.read_file', '  - google_search']; // 5-7

  test('a code tool registered under the dotted name satisfies it', async () => {
    const file = await project('py-exact', { 'root_agent.yaml': llm('root', tools) });
    const { definition, warnings } = await loadDefinition(file, {
      cwd: dir,
      knownTools: ['agents.studio_tools.read_file', 'web_search'],
    });
    expect(definition.toolConfig.tools).toEqual(['agents.studio_tools.read_file', 'web_search']);
    expect(lines(warnings)).toEqual([]);
  });

  test('a code tool that lists the path in its aliases is granted under its own name', async () => {
    const file = await project('py-alias', { 'root_agent.yaml': llm('root', tools) });
    const { definition, warnings } = await loadDefinition(file, {
      cwd: dir,
      knownTools: ['studio_read_file', 'web_search'],
      toolAliases: toolAliasesOf([
        defineTool({
          name: 'studio_read_file',
          aliases: ['agents.studio_tools.read_file'],
          description: 'Reads a studio file.',
          inputSchema: { type: 'object' },
          sideEffect: false,
          execute: () => Promise.resolve('x'),
        }),
      ]),
    });
    expect(definition.toolConfig.tools).toEqual(['studio_read_file', 'web_search']);
    expect(lines(warnings)).toEqual([]);
  });

  test('with neither, the path warns at its own line and says how to provide it', async () => {
    const file = await project('py-none', { 'root_agent.yaml': llm('root', tools) });
    const { definition, warnings } = await loadDefinition(file, {
      cwd: dir,
      knownTools: ['read_file', 'web_search'],
      // An alias to a tool this install does not have grants nothing.
      toolAliases: { 'agents.studio_tools.read_file': 'missing_tool' },
    });
    expect(definition.toolConfig.tools).toEqual(['web_search']);
    expect(lines(warnings)).toEqual([
      '6 tools.0.name: tool "agents.studio_tools.read_file" is not available in Cadre (a Python function, which Cadre cannot import: a code tool with "agents.studio_tools.read_file" in its aliases provides it); the agent loads without it',
    ]);
  });
});

describe('toolAliasesOf', () => {
  const tool = (name: string, aliases: string[]) =>
    defineTool({
      name,
      aliases,
      description: 'd',
      inputSchema: { type: 'object' },
      sideEffect: false,
      execute: () => Promise.resolve(''),
    });

  test("an alias never shadows another tool's own name, and the first declaration keeps it", () => {
    expect(toolAliasesOf([tool('a', ['x.y', 'b']), tool('b', ['x.y', 'z.w'])])).toEqual({
      'x.y': 'a',
      'z.w': 'b',
    });
  });
});
