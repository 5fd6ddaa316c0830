import type { AgentFormatConfig } from './agent-format-config.js';
import type { AgentFormatResult, RunAgentOptions } from './run-agent.js';

/**
 * `runAgent` as the package entry offers it: the agent-format code (agent
 * discovery, the router, the built-in agents) loads on the first call, not
 * with every `import … from 'cadre'`.
 */
export async function runAgent(
  prompt: string,
  chatHistory?: string,
  memory?: string,
  config: AgentFormatConfig = {},
  options: RunAgentOptions = {},
): Promise<AgentFormatResult> {
  const { runAgent: run } = await import('./run-agent.js');
  return run(prompt, chatHistory, memory, config, options);
}

/** The snake_case name agent-format callers expect. */
export const run_agent = runAgent;
