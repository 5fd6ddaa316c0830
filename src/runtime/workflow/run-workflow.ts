import type { AgentDefinition, WorkflowConfig } from '../../definition/types.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../../definition/types.js';
import type { CodeAgentRun } from '../loop/code-agent-runner.js';
import { PROMPT_INPUT } from '../prompt/inputs.js';
import type { ExecutionOptions } from '../loop/run-options.js';
import { WorkflowAgent } from './workflow-agent.js';

/** A workflow definition as the code agent the executor runs. */
export function workflowRun(
  definition: AgentDefinition & { workflow: WorkflowConfig },
  options: ExecutionOptions,
): CodeAgentRun {
  const inputs = options.inputs ?? {};
  const prompt =
    typeof inputs[PROMPT_INPUT] === 'string' ? inputs[PROMPT_INPUT] : JSON.stringify(inputs);
  const ownBudgetMs = (definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES) * 60_000;
  return {
    agent: new WorkflowAgent(definition, definition.workflow, options.state),
    input: {
      prompt,
      inputs,
      ...(options.history ? { history: options.history } : {}),
      ...(options.memory ? { memory: options.memory } : {}),
    },
    options: { ...options, timeBudgetMs: Math.min(ownBudgetMs, options.timeBudgetMs ?? Infinity) },
  };
}
