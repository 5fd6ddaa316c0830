import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../definition/types.js';
import type { AgentKind } from '../../contracts/agent-kind.js';
import type { AgentInput } from '../../contracts/agent.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { run } from '../run-verbs.js';
import { codeAgentInput, promptFromInputs } from './code-agent-input.js';

const base = {
  description: 'Test agent',
  promptConfig: { systemPrompt: 'Be brief.' },
  toolConfig: { tools: [] },
};
const router: AgentDefinition = { ...base, name: 'router', router: { domains: ['weather'] } };
const workflow: AgentDefinition = {
  ...base,
  name: 'flow',
  workflow: { kind: 'sequential', agents: [] },
};
const remote: AgentDefinition = {
  ...base,
  name: 'remote',
  remote: { agentCardUrl: 'http://127.0.0.1:9/card' },
};
const custom: AgentDefinition = { ...base, name: 'custom', kind: 'custom' };

/** Every kind's agent replaced by one that keeps the input it was given. */
function capturing(seen: AgentInput[]): AgentKind {
  return (definition) => ({
    agent: {
      name: definition.name,
      description: definition.description,
      async *execute(input: AgentInput) {
        seen.push(input);
        yield { type: 'final_result', message: 'Done', data: { content: 'ok' } };
      },
    },
  });
}

const cases: Array<[string, Record<string, unknown>]> = [
  ['a prompt string', { prompt: 'Will it rain?' }],
  ['a prompt with other inputs', { prompt: 'Summarise', path: 'a.md' }],
  ['no prompt: the inputs as JSON', { topic: 'owls', lines: 3 }],
  ['a prompt that is not a string', { prompt: 42 }],
  ['a query input is an input like any other', { query: 'Will it rain?' }],
  ['no inputs', {}],
];

describe('the prompt a code agent starts from', () => {
  it.each(cases)(
    'is the same for a router, a workflow, a remote agent and a registered kind (no model call): %s',
    async (_, inputs) => {
      const seen: AgentInput[] = [];
      const kind = capturing(seen);
      const agentKinds = { router: kind, workflow: kind, remote: kind, custom: kind };
      const options = { inputs, memory: 'likes short answers' };
      for (const definition of [router, workflow, remote, custom])
        await run(definition, {
          ...options,
          model: new ScriptedModel([]),
          adapters: { agentKinds },
        });
      const expected = codeAgentInput(inputs, options);
      expect(seen).toEqual([expected, expected, expected, expected]);
    },
  );

  it('is the prompt input when it is a string, else the inputs as JSON', () => {
    expect(promptFromInputs({ prompt: 'Hi', extra: 1 })).toBe('Hi');
    expect(promptFromInputs({ query: 'Hi' })).toBe('{"query":"Hi"}');
    expect(promptFromInputs({ prompt: 42 })).toBe('{"prompt":42}');
  });
});
