import type { AgentDefinition, RouterConfig } from '../../definition/types.js';
import { runCodeAgent } from '../loop/code-agent-runner.js';
import { PROMPT_INPUT } from '../prompt/inputs.js';
import type { RunOptions } from '../loop/run-options.js';
import type { RunResult } from '../../contracts/run-result.js';
import { RouterAgent } from './router-agent.js';

/** Runs a `kind: router` definition: the same services, events and result as any agent. */
export function runRouter(
  definition: AgentDefinition & { router: RouterConfig },
  options: RunOptions,
): Promise<RunResult> {
  const inputs = options.inputs ?? {};
  const prompt =
    typeof inputs[PROMPT_INPUT] === 'string' ? inputs[PROMPT_INPUT] : JSON.stringify(inputs);
  const agent = new RouterAgent(
    definition,
    options.services?.agents ?? options.agents,
    options.router ?? {},
  );
  return runCodeAgent(
    agent,
    {
      prompt,
      inputs,
      ...(options.history ? { history: options.history } : {}),
      ...(options.memory ? { memory: options.memory } : {}),
    },
    {
      ...options,
      ...((options.router?.models?.router ?? definition.modelConfig?.model)
        ? { modelName: options.router?.models?.router ?? definition.modelConfig?.model }
        : {}),
    },
  );
}
