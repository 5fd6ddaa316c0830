import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../contracts/agent.js';
import { loadDefinition } from '../definition/load-definition-file.js';
import type { AgentDefinition } from '../definition/types.js';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { run } from '../agents/run-verbs.js';
import {
  startSdkTestServer,
  type SdkTestServer,
  type TestProtocol,
} from './testing/sdk-test-server.js';

const called = (request: ModelRequest): boolean =>
  request.messages.at(-1)?.parts.some((p) => p.kind === 'function_response') ?? false;
const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  parts: [{ functionCall: { name, args } }],
});
const lastResponse = (request: ModelRequest | undefined): unknown => {
  const part = request?.messages.at(-1)?.parts.find((p) => p.kind === 'function_response');
  return part?.kind === 'function_response' ? part.response : undefined;
};

const catalog = (...definitions: AgentDefinition[]): AgentLookup => {
  const entries = new Map<string, AgentEntry>(
    definitions.map((d) => [d.name, { kind: 'definition', definition: d }]),
  );
  return { get: (name) => entries.get(name), names: () => [...entries.keys()] };
};

describe('remote (A2A) agents as subagents, through the SDK client against the SDK server (scripted)', () => {
  let remote: SdkTestServer;
  let dir: string;
  beforeAll(async () => {
    remote = await startSdkTestServer((text) =>
      text.includes('ask me')
        ? { state: 'input-required', text: 'Which city?' }
        : { state: 'completed', text: `remote says: ${text}` },
    );
    dir = await mkdtemp(path.join(tmpdir(), 'cadre-a2a-'));
  });
  afterAll(async () => {
    await remote.close();
    await rm(dir, { recursive: true, force: true });
  });

  const parent: AgentDefinition = {
    name: 'boss',
    description: 'Delegates.',
    promptConfig: { systemPrompt: 'You delegate.' },
    toolConfig: { tools: ['weather'] },
  };

  /** The parent model calls `weather` with `task`, then repeats what it got back. */
  const delegating = (task: string) =>
    new ScriptedModel((request) =>
      called(request)
        ? { parts: [{ text: JSON.stringify(lastResponse(request)) }] }
        : call('weather', { prompt: task }),
    );

  async function loaded(file: string, text: string): Promise<AgentDefinition> {
    await writeFile(path.join(dir, file), text);
    return (await loadDefinition(file, { cwd: dir })).definition;
  }

  it('a Gemini CLI `kind: remote` agent sends the task over A2A and returns the remote answer', async () => {
    const weather = await loaded(
      'weather.md',
      `---\nkind: remote\nname: weather\ndescription: Weather anywhere.\nagent_card_url: ${remote.cardUrl}\n---\n`,
    );
    expect(weather.remote).toEqual({ agentCardUrl: remote.cardUrl });
    const model = delegating('rain in Oslo?');
    const result = await run(parent, {
      model,
      agents: catalog(parent, weather),
      inputs: { prompt: 'weather?' },
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(remote.received.at(-1)).toContain('rain in Oslo?');
    expect(remote.methods).toEqual(['SendMessage']);
    expect(JSON.stringify(lastResponse(model.requests.at(-1)))).toContain(
      'remote says: rain in Oslo?',
    );
  });

  it('an ADK RemoteA2aAgent sub-agent (agent_card) is called the same way', async () => {
    await loaded(
      'weather.yaml',
      `agent_class: RemoteA2aAgent\nname: weather\ndescription: Weather anywhere.\nagent_card: ${remote.cardUrl}\n`,
    );
    const root = await loaded(
      'root.yaml',
      'name: boss\nmodel: gemini-2.5-flash\ndescription: Delegates.\ninstruction: You delegate.\nsub_agents:\n  - config_path: weather.yaml\n',
    );
    const weather = root.subagents?.find((agent) => agent.name === 'weather');
    expect(weather?.remote).toEqual({ agentCardUrl: remote.cardUrl });
    const model = delegating('snow in Bergen?');
    const result = await run(root, { model, inputs: { prompt: 'weather?' } });
    expect(result.terminate_reason).toBe('GOAL');
    expect(remote.received.at(-1)).toContain('snow in Bergen?');
    expect(JSON.stringify(lastResponse(model.requests.at(-1)))).toContain(
      'remote says: snow in Bergen?',
    );
  });

  it('a remote task left input-required reaches the parent as a failure with the question', async () => {
    const weather = await loaded(
      'asker.md',
      `---\nkind: remote\nname: weather\ndescription: Asks back.\nagent_card_url: ${remote.cardUrl}\n---\n`,
    );
    const model = delegating('ask me something');
    await run(parent, {
      model,
      agents: catalog(parent, weather),
      inputs: { prompt: 'weather?' },
    });
    const answer = JSON.stringify(lastResponse(model.requests.at(-1)));
    expect(answer).toContain('waiting for input that this call cannot give');
    expect(answer).toContain('input-required');
    expect(answer).toContain('Which city?');
  });
});

describe('remote (A2A) agents speaking v0.3, through the SDK client against the SDK v0.3 server handler (scripted)', () => {
  const servers: SdkTestServer[] = [];
  let dir: string;
  const answering = (text: string) =>
    text.includes('ask me')
      ? ({ state: 'input-required', text: 'Which fjord?' } as const)
      : ({ state: 'completed', text: `fjord remote says: ${text}` } as const);
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cadre-a2a-v03-'));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await rm(dir, { recursive: true, force: true });
  });
  async function started(protocol: TestProtocol): Promise<SdkTestServer> {
    const server = await startSdkTestServer(answering, protocol);
    servers.push(server);
    return server;
  }

  const parent: AgentDefinition = {
    name: 'boss',
    description: 'Delegates.',
    promptConfig: { systemPrompt: 'You delegate.' },
    toolConfig: { tools: ['fjords'] },
  };
  const delegating = (task: string) =>
    new ScriptedModel((request) =>
      called(request)
        ? { parts: [{ text: JSON.stringify(lastResponse(request)) }] }
        : call('fjords', { prompt: task }),
    );
  async function remoteDefinition(cardUrl: string): Promise<AgentDefinition> {
    const file = `fjords-${servers.length}.md`;
    await writeFile(
      path.join(dir, file),
      `---\nkind: remote\nname: fjords\ndescription: Fjords.\nagent_card_url: ${cardUrl}\n---\n`,
    );
    return (await loadDefinition(file, { cwd: dir })).definition;
  }
  async function ask(remote: SdkTestServer, task: string): Promise<string> {
    const model = delegating(task);
    const fjords = await remoteDefinition(remote.cardUrl);
    const result = await run(parent, {
      model,
      agents: catalog(parent, fjords),
      inputs: { prompt: 'fjords?' },
    });
    expect(result.terminate_reason).toBe('GOAL');
    return JSON.stringify(lastResponse(model.requests.at(-1)));
  }

  it('a v0.3 card (protocolVersion 0.3.0, url) is answered over message/send, and the remote answer comes back', async () => {
    const remote = await started('0.3');
    expect(await ask(remote, 'deepest fjord?')).toContain('fjord remote says: deepest fjord?');
    expect(remote.methods).toEqual(['message/send']);
  });

  it('a v0.3 task left input-required reaches the parent as a failure with the question', async () => {
    const remote = await started('0.3');
    const answer = await ask(remote, 'ask me something');
    expect(answer).toContain('waiting for input that this call cannot give');
    expect(answer).toContain('input-required');
    expect(answer).toContain('Which fjord?');
  });

  it('a card claiming 1.0 in front of a v0.3-only server: SendMessage gets "method not found", message/send is sent instead', async () => {
    const remote = await started('0.3 behind a 1.0 card');
    expect(await ask(remote, 'longest fjord?')).toContain('fjord remote says: longest fjord?');
    expect(remote.methods).toEqual(['SendMessage', 'message/send']);
    expect(remote.received).toEqual(['longest fjord?']);
  });

  it('an unversioned card in front of a 1.0 server: message/send gets "method not found", SendMessage is sent instead', async () => {
    const remote = await started('1.0 behind an unversioned card');
    expect(await ask(remote, 'widest fjord?')).toContain('fjord remote says: widest fjord?');
    expect(remote.methods).toEqual(['message/send', 'SendMessage']);
  });
});
