import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEnvironment } from '../../cli/agent-environment.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { agentsMcpServer } from './agents-mcp-server.js';

const TITLER = `name: titler
description: Suggests a title for a topic.
inputConfig:
  inputs:
    topic: { type: string, description: What the piece is about, required: true }
    words: { type: integer, description: At most this many words }
promptConfig:
  systemPrompt: You title pieces in at most \${words} words.
  query: Suggest a title about \${topic}.
`;
const GREETER = `name: greeter
description: Greets people by name.
promptConfig:
  systemPrompt: Greet the user.
`;

let project: string;
let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'cadre-mcp-content-')));
  await mkdir(join(project, 'agents'));
  await writeFile(join(project, 'agents', 'titler.yaml'), TITLER);
  await writeFile(join(project, 'agents', 'greeter.yaml'), GREETER);
  const environment = await agentEnvironment({
    stdout: () => {},
    stderr: () => {},
    env: { HOME: project },
    cwd: project,
    isTTY: false,
  });
  // The scripted model is never called: prompts and resources run no agent.
  const server = agentsMcpServer({
    agents: environment.registry,
    workspace: project,
    model: new ScriptedModel(() => ({ parts: [{ text: 'unused' }] })),
    builtins: false,
  });
  client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  close = async () => {
    await client.close();
    await server.close();
  };
});
afterAll(async () => {
  await close();
  await rm(project, { recursive: true, force: true });
});

describe('cadre mcp: agents as prompts and resources (real MCP SDK client, in-memory transport)', () => {
  it('declares prompts and resources, and lists each agent as a prompt with its inputs as arguments', async () => {
    expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, resources: {} });
    const { prompts } = await client.listPrompts();
    const titler = prompts.find((p) => p.name === 'titler');
    expect(titler?.description).toBe('Suggests a title for a topic.');
    expect(titler?.arguments).toEqual([
      { name: 'topic', description: 'What the piece is about', required: true },
      { name: 'words', description: 'At most this many words', required: false },
    ]);
    expect(prompts.find((p) => p.name === 'greeter')?.arguments).toEqual([
      { name: 'prompt', description: expect.any(String) as string, required: true },
    ]);
  });

  it('prompts/get answers the system prompt and the query filled with the arguments, without Cadre’s loop rules', async () => {
    const result = await client.getPrompt({
      name: 'titler',
      arguments: { topic: 'tide pools', words: '5' },
    });
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'You title pieces in at most 5 words.' } },
      { role: 'user', content: { type: 'text', text: 'Suggest a title about tide pools.' } },
    ]);
    const greeting = await client.getPrompt({
      name: 'greeter',
      arguments: { prompt: 'Hi, I am Ada' },
    });
    expect(greeting.messages.map((m) => m.content)).toEqual([
      { type: 'text', text: 'Greet the user.' },
      { type: 'text', text: 'Hi, I am Ada' },
    ]);
  });

  it('a missing required argument or an unknown prompt is a protocol error', async () => {
    await expect(client.getPrompt({ name: 'titler', arguments: {} })).rejects.toThrow(/topic/);
    await expect(client.getPrompt({ name: 'nobody', arguments: {} })).rejects.toThrow(
      /Unknown prompt/,
    );
  });

  it('lists each definition as cadre://agents/<name> and reads it as the file its author wrote', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'cadre://agents/greeter',
      'cadre://agents/titler',
    ]);
    const read = await client.readResource({ uri: 'cadre://agents/titler' });
    expect(read.contents).toEqual([
      { uri: 'cadre://agents/titler', mimeType: 'application/yaml', text: TITLER },
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['cadre://agents/{name}']);
  });

  it('a URI outside the agents (another path, a file URI, a traversal) is not found', async () => {
    for (const uri of [
      'cadre://agents/nobody',
      'cadre://agents/..%2F..%2Fetc%2Fpasswd',
      `file://${join(project, 'agents', 'titler.yaml')}`,
      'cadre://runs/anything',
    ])
      await expect(client.readResource({ uri })).rejects.toThrow(/-32002/);
  });
});
