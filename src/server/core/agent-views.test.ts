import { describe, expect, it } from 'vitest';
import { AgentRegistry } from '../../agents/agent-registry.js';
import type { AgentDefinition } from '../../definition/types.js';
import { agentViews } from './agent-views.js';
import { SERVER_ASSISTANT } from '../../agents/default-assistant.js';

const agent = (name: string, file?: string): AgentDefinition => ({
  name,
  description: `${name} agent`,
  promptConfig: { systemPrompt: 'x' },
  toolConfig: { tools: [] },
  ...(file ? { source: { file, format: 'yaml' as const } } : {}),
});

function registry(...definitions: AgentDefinition[]): AgentRegistry {
  const agents = new AgentRegistry();
  for (const definition of definitions)
    agents.register({ entry: { kind: 'definition', definition }, origin: 'project' });
  return agents;
}

describe('the agents a page can pick', () => {
  it('lists the built-in assistant first, as the default, with its example prompts', () => {
    const views = agentViews({ agents: registry(agent('helper')), defaultAgent: SERVER_ASSISTANT });
    expect(views.map((v) => [v.name, v.origin, v.default])).toEqual([
      ['assistant', 'default', true],
      ['helper', 'project', undefined],
    ]);
    expect(views[0]?.examples?.length).toBeGreaterThan(0);
    expect(views[1]?.examples).toBeUndefined();
  });

  it('marks a default loaded from an agent folder (ACTIVE_AGENT_PATH) instead of listing it twice', () => {
    const active = agent('triage', '/p/agents/triage.yaml');
    const views = agentViews({
      agents: registry(agent('helper'), agent('triage', '/p/agents/triage.yaml')),
      defaultAgent: active,
    });
    expect(views.map((v) => [v.name, v.origin, v.default])).toEqual([
      ['triage', 'project', true],
      ['helper', 'project', undefined],
    ]);
  });

  it('keeps a folder agent that only shares the default name: a run naming it gets that one', () => {
    const views = agentViews({
      agents: registry(agent('assistant', '/p/agents/assistant.yaml')),
      defaultAgent: SERVER_ASSISTANT,
    });
    expect(views.map((v) => [v.name, v.origin, v.default])).toEqual([
      ['assistant', 'default', true],
      ['assistant', 'project', undefined],
    ]);
  });

  it('reads inputs written as a JSON Schema as well as the spec map', () => {
    const schema: AgentDefinition = {
      ...agent('schema'),
      inputConfig: {
        inputSchema: {
          type: 'object',
          required: ['query'],
          properties: {
            query: { type: 'string', description: 'What to look for' },
            limit: { type: ['integer', 'null'] },
            ids: { type: 'array', items: { type: 'number' } },
            mode: { enum: ['fast', 'deep'] },
            extra: {},
          },
        },
      },
    };
    const [, view] = agentViews({ agents: registry(schema), defaultAgent: SERVER_ASSISTANT });
    expect(view?.inputs).toEqual([
      { name: 'query', type: 'string', required: true, description: 'What to look for' },
      { name: 'limit', type: 'integer', required: false },
      { name: 'ids', type: 'number[]', required: false },
      { name: 'mode', type: 'string', required: false },
      { name: 'extra', type: 'object', required: false },
    ]);
  });
});
