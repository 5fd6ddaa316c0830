import type { AgentLookup } from '../../contracts/agent.js';
import { ToolExecutionError } from '../../errors/cadre-error.js';
import type { AgentDefinition } from '../../definition/types.js';
import { defineTool, type Tool } from '../../tools/types.js';
import { PROMPT_INPUT } from '../prompt/inputs.js';
import { inputsFor } from './query-inputs.js';
import { childReport } from './agent-result.js';
import { parseToolSet } from './tool-set.js';
import type { SpawnRequest } from '../../contracts/agent.js';

import { TASK_TOOL } from '../../contracts/task-tool-name.js';

export { TASK_TOOL };

interface TaskArgs {
  agent:
    | string
    | {
        type: 'prompt';
        description?: string;
        system_prompt: string;
        tools?: unknown;
        model?: string;
      };
  query: string;
  config?: { tools?: unknown; allow_nested?: boolean; timeout_secs?: number };
}

const TOOL_SET_SCHEMA = {
  description:
    'Tools for the child: a list of names, "all", "none", "inherit", {"except": [...]} or {"inherit_except": [...]}. Never more than you have.',
};

/**
 * The Task tool (authoring guide 002): start a registered agent by name or
 * an ephemeral prompt agent, and get back structured JSON.
 */
export function taskTool(agents: AgentLookup | undefined, agentNames: readonly string[]): Tool {
  return defineTool<TaskArgs>({
    name: TASK_TOOL,
    description:
      'Delegate a self-contained task to a subagent and get its result as JSON ' +
      '{agent_id, terminate_reason, output | emitted_vars, final_message}. ' +
      (agentNames.length ? `Registered agents: ${agentNames.join(', ')}. ` : '') +
      'Or define one inline with {"type": "prompt", "description", "system_prompt", "tools", "model"}.',
    inputSchema: {
      type: 'object',
      properties: {
        agent: {
          anyOf: [
            { type: 'string', description: 'Name of a registered agent.' },
            {
              type: 'object',
              properties: {
                type: { type: 'string', enum: ['prompt'] },
                description: { type: 'string' },
                system_prompt: { type: 'string' },
                tools: TOOL_SET_SCHEMA,
                model: { type: 'string' },
              },
              required: ['type', 'system_prompt'],
            },
          ],
        },
        query: { type: 'string', description: 'The task, in full: the child sees nothing else.' },
        config: {
          type: 'object',
          properties: {
            tools: TOOL_SET_SCHEMA,
            allow_nested: {
              type: 'boolean',
              description: 'May the child start subagents? Default true.',
            },
            timeout_secs: { type: 'number', exclusiveMinimum: 0 },
          },
        },
      },
      required: ['agent', 'query'],
    },
    sideEffect: false,
    outsidePatterns: (args, allowed) => outsideAgentTypes(args.agent, allowed),
    preview: (args) =>
      `Delegate to ${typeof args.agent === 'string' ? args.agent : 'an ad-hoc agent'}: ${args.query.slice(0, 80)}`,
    async execute(args, ctx) {
      if (!ctx.spawn)
        throw new ToolExecutionError('This agent may not start subagents (allow_nested is false).');
      const result = await ctx.spawn(spawnRequest(args, agents), ctx.signal);
      return childReport(result);
    },
  });
}

/**
 * A definition that narrowed task (`Task(code-reviewer)`) lets it start only
 * the agents it named; an inline agent is none of them.
 */
function outsideAgentTypes(
  agent: TaskArgs['agent'],
  allowed: readonly string[],
): string | undefined {
  if (typeof agent === 'string' && allowed.includes(agent)) return undefined;
  const which = typeof agent === 'string' ? `'${agent}'` : 'an inline agent';
  return `task may only start ${allowed.join(', ')} here, not ${which}`;
}

function spawnRequest(args: TaskArgs, agents: AgentLookup | undefined): SpawnRequest {
  const callTools = args.config?.tools === undefined ? undefined : parseToolSet(args.config.tools);
  if (args.config?.tools !== undefined && !callTools)
    throw new ToolExecutionError('config.tools is not a tool set I understand.');
  const common = {
    ...(callTools ? { narrowTo: callTools } : {}),
    ...(args.config?.allow_nested === false ? { allowNested: false } : {}),
    ...(args.config?.timeout_secs ? { timeoutMs: args.config.timeout_secs * 1000 } : {}),
  };
  if (typeof args.agent === 'string') {
    const entry = agents?.get(args.agent);
    if (!entry) throw new ToolExecutionError(`No agent named '${args.agent}'.`);
    return { target: entry, ephemeral: false, inputs: inputsFor(entry, args.query), ...common };
  }
  const inline = args.agent;
  const ownTools = inline.tools === undefined ? undefined : parseToolSet(inline.tools);
  if (inline.tools !== undefined && !ownTools)
    throw new ToolExecutionError('agent.tools is not a tool set I understand.');
  const definition: AgentDefinition = {
    name: 'ephemeral',
    description: inline.description ?? 'An ad-hoc agent',
    promptConfig: { systemPrompt: inline.system_prompt },
    ...(inline.model ? { modelConfig: { model: callTimeModel(inline.model) } } : {}),
    toolConfig: { tools: [] },
  };
  // An ephemeral child's tools come from the parent; config.tools narrows them further.
  return {
    ...common,
    target: { kind: 'definition', definition },
    ephemeral: true,
    inputs: { [PROMPT_INPUT]: args.query },
    ...(ownTools ? { tools: ownTools } : {}),
  };
}

/** A model named by the model at call time: a provider model, never a local file of canned answers. */
function callTimeModel(model: string): string {
  if (/^scripted:/i.test(model.trim()))
    throw new ToolExecutionError(
      "agent.model cannot name a scripted model; leave it out to use the run's model.",
    );
  return model;
}
