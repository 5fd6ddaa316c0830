import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../contracts/agent.js';
import { loadDefinition } from '../definition/load-definition-file.js';
import type { AgentDefinition } from '../definition/types.js';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { run } from '../runtime/run-verbs.js';
import { startSdkTestServer, type SdkTestServer } from './sdk-test-server.js';

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
    expect(answer).toContain('input-required');
    expect(answer).toContain('Which city?');
  });
});
