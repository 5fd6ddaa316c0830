import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRegistry } from '../../agents/agent-registry.js';
import { agentEnvironment } from '../../cli/agent-environment.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { createRuntime, type Runtime } from '../../runtime/loop/runtime.js';
import { agentsMcpServer } from './agents-mcp-server.js';
import type { LocalAgentsOptions } from './local-agent-tools.js';

let project: string;
let registry: AgentRegistry;
let runtime: Runtime;
const open: Array<() => Promise<void>> = [];

const AGENTS: Record<string, string> = {
  'greeter.yaml': `name: greeter
description: Greets people by name.
promptConfig:
  systemPrompt: Greet the user.
`,
  'writer.yaml': `name: writer
displayName: File writer
description: Writes notes into the workspace.
toolConfig:
  tools: [write_file]
promptConfig:
  systemPrompt: Write what you are asked to write.
`,
  'titler.yaml': `name: titler
description: Suggests a title for a topic.
inputConfig:
  inputs:
    topic: { type: string, description: What the piece is about, required: true }
    words: { type: integer, description: At most this many words }
outputConfig:
  schema:
    type: object
    properties:
      title: { type: string }
    required: [title]
promptConfig:
  query: Suggest a title about \${topic}.
`,
};

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'cadre-mcp-')));
  await mkdir(join(project, 'agents'));
  for (const [file, text] of Object.entries(AGENTS))
    await writeFile(join(project, 'agents', file), text);
  const environment = await agentEnvironment({
    stdout: () => {},
    stderr: () => {},
    env: { HOME: project },
    cwd: project,
    isTTY: false,
  });
  expect(environment.diagnostics).toEqual([]);
  registry = environment.registry;
  runtime = await createRuntime();
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

type Elicit = (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

/** A linked server and SDK client; `elicit` makes the client declare (and answer) elicitation. */
async function connect(
  model: ScriptedModel,
  options: { elicit?: Elicit } & Partial<LocalAgentsOptions> = {},
): Promise<{ client: Client; asked: ElicitRequest[] }> {
  const { elicit, ...rest } = options;
  const server = agentsMcpServer({
    agents: registry,
    workspace: project,
    runtime,
    model,
    builtins: false,
    ...rest,
  });
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  const asked: ElicitRequest[] = [];
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return elicit(request);
    });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, asked };
}

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const responseOf = (r: ModelRequest): string => {
  const part = lastParts(r).find((p) => p.kind === 'function_response');
  return part?.kind === 'function_response' ? JSON.stringify(part.response) : '';
};

/** Asks to write `file`, then reports what the tool answered. */
const writerModel = (file: string) =>
  new ScriptedModel((r): ScriptedTurn =>
    responseOf(r)
      ? { parts: [{ text: `Tool said: ${responseOf(r)}` }] }
      : {
          parts: [{ functionCall: { name: 'write_file', args: { path: file, content: 'hello' } } }],
        },
  );

const textOf = (result: CallToolResult): string =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('agents as MCP tools (in-memory transport, SDK client, scripted model)', () => {
  it('lists each agent with its input schema (and its output schema when it has one)', async () => {
    const { client } = await connect(new ScriptedModel([]));
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(['greeter', 'titler', 'writer']);
    expect(byName.get('greeter')).toMatchObject({
      description: 'Greets people by name.',
      inputSchema: {
        type: 'object',
        properties: { prompt: { type: 'string' } },
        required: ['prompt'],
      },
    });
    expect(byName.get('greeter')?.outputSchema).toBeUndefined();
    expect(byName.get('writer')?.title).toBe('File writer');
    expect(byName.get('titler')).toMatchObject({
      inputSchema: {
        type: 'object',
        properties: {
          topic: { type: 'string', description: 'What the piece is about' },
          words: { type: 'integer' },
        },
        required: ['topic'],
      },
      outputSchema: {
        type: 'object',
        properties: { title: { type: 'string' } },
        required: ['title'],
      },
    });
  });

  it('marks an agent that only reads as read-only, and one that may write as destructive', async () => {
    const { client } = await connect(new ScriptedModel([]));
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('greeter')?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(byName.get('writer')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it('serves the built-in code agents too unless told not to', async () => {
    const server = agentsMcpServer({ agents: registry, workspace: project, runtime });
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    open.push(() => client.close());
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['greeter', 'react', 'deep_research']));
  });

  it('runs an agent and answers its final message', async () => {
    const model = new ScriptedModel([{ parts: [{ text: 'Hello, Ann!' }] }]);
    const { client } = await connect(model);
    const result = (await client.callTool({
      name: 'greeter',
      arguments: { prompt: 'I am Ann' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('Hello, Ann!');
    expect(JSON.stringify(model.requests[0]?.messages)).toContain('I am Ann');
  });

  it('returns structured content for an agent with an output schema, and reports progress', async () => {
    const model = new ScriptedModel([
      {
        parts: [{ functionCall: { name: 'complete_task', args: { result: { title: 'Tides' } } } }],
      },
    ]);
    const { client } = await connect(model);
    const progress: string[] = [];
    const result = (await client.callTool(
      { name: 'titler', arguments: { topic: 'the sea', words: 3 } },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p.message ?? '') },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ title: 'Tides' });
    expect(JSON.parse(textOf(result))).toEqual({ title: 'Tides' });
    expect(JSON.stringify(model.requests[0]?.messages)).toContain('Suggest a title about the sea.');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.join('\n')).toMatch(/complete_task/);
  });

  it('answers arguments the agent refuses as an error result the caller can fix', async () => {
    const model = new ScriptedModel([]);
    const { client } = await connect(model);
    const result = (await client.callTool({
      name: 'titler',
      arguments: { words: 'three' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/topic/);
    expect(model.requests).toHaveLength(0);
  });

  it('writes the file when the person approves through elicitation', async () => {
    const file = join(project, 'approved.txt');
    const { client, asked } = await connect(writerModel('approved.txt'), {
      elicit: () => ({ action: 'accept', content: { decision: 'approve' } }),
    });
    const result = (await client.callTool({
      name: 'writer',
      arguments: { prompt: 'Write hello' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(await readFile(file, 'utf8')).toBe('hello');
    expect(asked).toHaveLength(1);
    const params = asked[0]!.params as { message: string; requestedSchema: unknown };
    expect(params.message).toMatch(/write_file: Write 5 bytes to approved\.txt/);
    expect(params.requestedSchema).toMatchObject({
      properties: { decision: { enum: ['approve', 'approve_always', 'reject'] } },
      required: ['decision'],
    });
  });

  it('shows a path disguised with a bidi override and an erase-line escape escaped in the elicitation (scripted model)', async () => {
    const disguised = 'notes\u202etxt.sh\r\x1b[2K';
    const { client, asked } = await connect(writerModel(disguised), {
      elicit: () => ({ action: 'decline' }),
    });
    await client.callTool({ name: 'writer', arguments: { prompt: 'Write hello' } });
    expect(asked).toHaveLength(1);
    const { message } = asked[0]!.params as { message: string };
    expect(message).toContain('write_file: Write 5 bytes to notes\\u202etxt.sh\\r\\x1b[2K');
    expect(message).not.toMatch(/[\u202e\r\x1b]/);
    expect(await exists(join(project, disguised))).toBe(false);
  });

  it('does not write the file when the person rejects, and tells the agent why', async () => {
    const file = join(project, 'rejected.txt');
    const { client, asked } = await connect(writerModel('rejected.txt'), {
      elicit: () => ({
        action: 'accept',
        content: { decision: 'reject', reason: 'not in this folder' },
      }),
    });
    const result = (await client.callTool({
      name: 'writer',
      arguments: { prompt: 'Write hello' },
    })) as CallToolResult;
    expect(asked).toHaveLength(1);
    expect(await exists(file)).toBe(false);
    expect(textOf(result)).toContain('not in this folder');
  });

  it('counts a declined question as a rejection', async () => {
    const { client } = await connect(writerModel('declined.txt'), {
      elicit: () => ({ action: 'decline' }),
    });
    await client.callTool({ name: 'writer', arguments: { prompt: 'Write hello' } });
    expect(await exists(join(project, 'declined.txt'))).toBe(false);
  });

  it('refuses the call with the reason when the client cannot be asked', async () => {
    const file = join(project, 'unasked.txt');
    const { client } = await connect(writerModel('unasked.txt'));
    const result = (await client.callTool({
      name: 'writer',
      arguments: { prompt: 'Write hello' },
    })) as CallToolResult;
    expect(await exists(file)).toBe(false);
    expect(textOf(result)).toMatch(/Approval needed but this MCP client cannot be asked/);
  });

  it('runs pre-approved tools without asking', async () => {
    const { client, asked } = await connect(writerModel('preapproved.txt'), {
      approve: ['write_file'],
      elicit: () => ({ action: 'accept', content: { decision: 'reject' } }),
    });
    await client.callTool({ name: 'writer', arguments: { prompt: 'Write hello' } });
    expect(asked).toHaveLength(0);
    expect(await readFile(join(project, 'preapproved.txt'), 'utf8')).toBe('hello');
  });

  it('answers an unknown tool with a protocol error', async () => {
    const { client } = await connect(new ScriptedModel([]));
    await expect(client.callTool({ name: 'nobody', arguments: {} })).rejects.toThrow(
      /Unknown tool: nobody/,
    );
  });

  it('stops the run when the client cancels the call', async () => {
    // Tells the test the run reached its model call: the cancel comes mid-step.
    let reached = (): void => undefined;
    const inModel = new Promise<void>((resolve) => (reached = resolve));
    const model = new ScriptedModel(() => {
      reached();
      return { parts: [{ text: 'too late' }], delayMs: 10_000 };
    });
    let ended: (reason: string) => void = () => {};
    const end = new Promise<string>((resolve) => (ended = resolve));
    const { client } = await connect(model, {
      onEvent: (event) => {
        if (event.type === 'final_result') ended(event.message);
      },
    });
    const controller = new AbortController();
    const call = client.callTool({ name: 'greeter', arguments: { prompt: 'Hi' } }, undefined, {
      signal: controller.signal,
    });
    await inModel;
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await end).toBe('ABORTED');
  });

  it('marks a run that ends without its goal as an error, with the reason', async () => {
    const model = new ScriptedModel(() => {
      throw new Error('provider down');
    });
    const { client } = await connect(model);
    const result = (await client.callTool({
      name: 'greeter',
      arguments: { prompt: 'Hi' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The run ended with ERROR/);
  });
});
