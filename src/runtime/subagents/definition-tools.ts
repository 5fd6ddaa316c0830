import type { AgentDefinition } from '../../definition/types.js';
import type { Tool } from '../../tools/types.js';
import { EXIT_LOOP, exitLoopTool } from '../workflow/exit-loop-tool.js';
import { agentTool } from './agent-tool.js';
import { toolMadeOnce, type MadeOnce } from '../loop/made-once.js';

/**
 * Tools a definition brings with it rather than taking from the pool:
 * `exit_loop` for the agents of a loop, and its own sub-agents (ADK
 * `sub_agents` of an LlmAgent) offered as tools by name.
 */
export function definitionTools(
  definition: AgentDefinition,
  granted: readonly string[],
  made?: MadeOnce,
): Tool[] {
  const tools: Tool[] = [];
  if (granted.includes(EXIT_LOOP)) tools.push(exitLoopTool);
  for (const sub of definition.subagents ?? []) {
    if (granted.includes(sub.name))
      tools.push(
        toolMadeOnce(made, sub, '', () => agentTool({ kind: 'definition', definition: sub })),
      );
  }
  return tools;
}
