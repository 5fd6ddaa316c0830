import type { AgentDefinition, WorkflowConfig } from '../../definition/types.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../../definition/types.js';
import type { CodeAgentRun } from '../loop/code-agent-runner.js';
import { codeAgentInput } from '../prompt/code-agent-input.js';
import type { ExecutionOptions } from '../loop/run-options.js';
import { WorkflowAgent } from './workflow-agent.js';

/** A workflow definition as the code agent the executor runs. */
export function workflowRun(
  definition: AgentDefinition & { workflow: WorkflowConfig },
  options: ExecutionOptions,
): CodeAgentRun {
  const ownBudgetMs = (definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES) * 60_000;
  return {
    agent: new WorkflowAgent(definition, definition.workflow, options.state),
    input: codeAgentInput(options.inputs ?? {}, options),
    options: { ...options, timeBudgetMs: Math.min(ownBudgetMs, options.timeBudgetMs ?? Infinity) },
  };
}
