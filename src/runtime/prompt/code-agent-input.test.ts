import { describe, expect, it } from 'vitest';
import type { Agent } from '../../contracts/agent.js';
import type { AgentDefinition } from '../../definition/types.js';
import { kindRun } from '../loop/kind-run.js';
import { routerRun } from '../router/run-router.js';
import { workflowRun } from '../workflow/run-workflow.js';
import { codeAgentInput, promptFromInputs } from './code-agent-input.js';

const base = {
  description: 'Test agent',
  promptConfig: { systemPrompt: 'Be brief.' },
  toolConfig: { tools: [] },
};
const router: AgentDefinition & { router: { domains: string[] } } = {
  ...base,
  name: 'router',
  router: { domains: ['weather'] },
};
const workflow: AgentDefinition & { workflow: { kind: 'sequential'; agents: [] } } = {
  ...base,
  name: 'flow',
  workflow: { kind: 'sequential', agents: [] },
};
const remote: AgentDefinition = { ...base, name: 'remote' };
const noAgent = (): Agent => ({
  name: 'remote',
  description: 'never run',
  async *execute() {
    throw new Error('not run in this test');
  },
});

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
    'is the same for a router, a workflow, a remote agent and a code agent: %s',
    async (_, inputs) => {
      const options = { inputs, memory: 'likes short answers' };
      const expected = codeAgentInput(inputs, options);
      expect(routerRun(router, options).input).toEqual(expected);
      expect(workflowRun(workflow, options).input).toEqual(expected);
      expect((await kindRun(remote, noAgent, options)).input).toEqual(expected);
    },
  );

  it('is the prompt input when it is a string, else the inputs as JSON', () => {
    expect(promptFromInputs({ prompt: 'Hi', extra: 1 })).toBe('Hi');
    expect(promptFromInputs({ query: 'Hi' })).toBe('{"query":"Hi"}');
    expect(promptFromInputs({ prompt: 42 })).toBe('{"prompt":42}');
  });
});
