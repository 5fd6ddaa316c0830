import { describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../../contracts/agent.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { DEFAULT_KNOWN_TOOLS } from '../../definition/tool-names.js';
import type { AgentDefinition } from '../../definition/types.js';
import { validateDefinitionObject } from '../../definition/validate-definition.js';
import { readFileTool } from '../../tools/builtin/index.js';
import { run } from '../run-verbs.js';
import { TASK_TOOL } from './task-tool.js';

const agent = (name: string): AgentDefinition => ({
  name,
  description: `The ${name} agent`,
  promptConfig: { systemPrompt: `ROLE:${name}` },
  toolConfig: { tools: [] },
});
const reviewer = agent('code-reviewer');
const deployer = agent('deployer');
const agents: AgentLookup = {
  get: (name) =>
    [reviewer, deployer]
      .map((definition): AgentEntry => ({ kind: 'definition', definition }))
      .find((entry) => entry.kind === 'definition' && entry.definition.name === name),
  names: () => [reviewer.name, deployer.name],
};

/** A Claude Code agent whose tools are `Read, Task(code-reviewer)`, loaded where task exists. */
const lead = validateDefinitionObject(
  {
    name: 'lead',
    description: 'Delegates reviews',
    promptConfig: { systemPrompt: 'ROLE:lead' },
    toolConfig: { tools: ['Read', 'Task(code-reviewer)'] },
  },
  {
    knownTools: [...DEFAULT_KNOWN_TOOLS, TASK_TOOL],
    isKnownAgent: (name) => agents.get(name) !== undefined,
    source: { file: 'lead.md', format: 'markdown', foreign: 'claude-code' },
  },
);

const roleOf = (request: ModelRequest): string =>
  /ROLE:(\S+)/.exec(request.systemInstruction ?? '')?.[1] ?? '?';
const answered = (request: ModelRequest): unknown => {
  const part = request.messages.at(-1)?.parts.find((p) => p.kind === 'function_response');
  return part?.kind === 'function_response' ? part.response : undefined;
};

/** The lead calls task once with `agent`, then repeats what it was answered. */
async function delegate(target: unknown) {
  const model = new ScriptedModel((request): ScriptedTurn => {
    if (roleOf(request) !== 'lead') return { parts: [{ text: 'reviewed' }] };
    const response = answered(request);
    return response
      ? { parts: [{ text: JSON.stringify(response) }] }
      : { parts: [{ functionCall: { name: 'task', args: { agent: target, query: 'go' } } }] };
  });
  const result = await run(lead.definition, {
    model,
    tools: [readFileTool],
    agents,
    inputs: { prompt: 'review' },
  });
  return {
    answer: JSON.parse(result.final_message) as { output?: unknown; error?: string },
    roles: model.requests.map(roleOf),
  };
}

describe('Task(type) narrows task to the named agents (scripted model responses)', () => {
  it('loads as task narrowed to code-reviewer, with no warning', () => {
    expect(lead.definition.toolConfig).toEqual({
      tools: ['read_file', 'task'],
      patterns: { task: ['code-reviewer'] },
    });
    expect(lead.warnings).toEqual([]);
  });

  it('starts the named agent', async () => {
    const { answer, roles } = await delegate('code-reviewer');
    expect(roles).toContain('code-reviewer');
    expect(answer.output).toMatchObject({ terminate_reason: 'GOAL', final_message: 'reviewed' });
  });

  it.each([
    ['another registered agent', 'deployer', "not 'deployer'"],
    ['an inline agent', { type: 'prompt', system_prompt: 'ROLE:anything' }, 'not an inline agent'],
  ])('refuses %s before it starts', async (_label, target, why) => {
    const { answer, roles } = await delegate(target);
    expect(answer.error).toBe(`Refused: task may only start code-reviewer here, ${why}`);
    expect(roles.every((role) => role === 'lead')).toBe(true);
  });
});
