import { describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../../contracts/agent.js';
import type { AgentDefinition, RouterConfig } from '../../definition/types.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { run } from '../run-verbs.js';
import { RouterAgent } from './lazy-router-agent.js';

const router: AgentDefinition & { router: RouterConfig } = {
  name: 'assistant',
  description: 'Routes',
  promptConfig: { systemPrompt: 'ROLE:router' },
  toolConfig: { tools: [] },
  router: { domains: ['weather'] },
};
const weather: AgentEntry = {
  kind: 'definition',
  definition: {
    name: 'weather',
    description: 'Knows about weather.',
    promptConfig: { systemPrompt: 'ROLE:weather' },
    toolConfig: { tools: [] },
  },
};
const agents: AgentLookup = {
  get: (name) => (name === 'weather' ? weather : undefined),
  names: () => ['weather'],
};

describe('the public RouterAgent (its code loads on the first run)', () => {
  it('routes as the router agent does', async () => {
    const model = new ScriptedModel([
      {
        parts: [
          { functionCall: { name: 'route', args: { targets: [], direct_answer: 'Hello!' } } },
        ],
      },
    ]);
    const agent = new RouterAgent(router, agents);
    expect([agent.name, agent.description]).toEqual(['assistant', 'Routes']);
    const result = await run(agent, { model, inputs: { prompt: 'hi' } });
    expect(result.content).toBe('Hello!');
    expect(model.requests[0]?.systemInstruction).toContain('- weather: Knows about weather.');
  });
});
