import type { AgentEntry } from '../../contracts/agent.js';
import { ToolExecutionError } from '../../errors/cadre-error.js';
import { defineTool, type Tool } from '../../tools/types.js';
import { inputsJsonSchema, PROMPT_INPUT } from '../prompt/inputs.js';
import { childReport } from './agent-result.js';

/**
 * A registered agent offered as a tool: its parameters are its inputs
 * (validated by the registry before it runs), its result the child's report.
 */
export function agentTool(entry: AgentEntry): Tool {
  const name = entry.kind === 'definition' ? entry.definition.name : entry.name;
  const description =
    entry.kind === 'definition' ? entry.definition.description : entry.description;
  const inputSchema =
    entry.kind === 'definition'
      ? inputsJsonSchema(entry.definition)
      : {
          type: 'object',
          properties: { [PROMPT_INPUT]: { type: 'string', description: 'What to ask the agent.' } },
          required: [PROMPT_INPUT],
        };
  return defineTool<Record<string, unknown>>({
    name,
    description: `Delegate to the '${name}' agent: ${description}`,
    inputSchema,
    // The child's own side effects go through approval themselves.
    sideEffect: false,
    preview: () => `Ask the ${name} agent`,
    async execute(args, ctx) {
      if (!ctx.spawn) {
        throw new ToolExecutionError(
          `This agent may not start subagents, so '${name}' is unavailable.`,
        );
      }
      const result = await ctx.spawn({ target: entry, ephemeral: false, inputs: args }, ctx.signal);
      return childReport(result);
    },
  });
}
