import type { AgentDefinition, RouterConfig } from '../../definition/types.js';
import type { CodeAgentRun } from '../loop/code-agent-runner.js';
import { codeAgentInput } from '../prompt/code-agent-input.js';
import type { ExecutionOptions } from '../loop/run-options.js';
import { LoadedRouterAgent } from './router-agent.js';

/** A `kind: router` definition as the code agent the executor runs. */
export function routerRun(
  definition: AgentDefinition & { router: RouterConfig },
  options: ExecutionOptions,
): CodeAgentRun {
  const agent = new LoadedRouterAgent(definition, options.services?.agents ?? options.agents, {
    ...(definition.runConfig?.execution_mode === 'threads'
      ? { executionMode: 'threads' as const }
      : {}),
    ...options.router,
  });
  const modelName = options.router?.models?.router ?? definition.modelConfig?.model;
  return {
    agent,
    input: codeAgentInput(options.inputs ?? {}, options),
    options: { ...options, ...(modelName ? { modelName } : {}) },
  };
}
