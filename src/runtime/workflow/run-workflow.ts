import type { AgentDefinition, WorkflowConfig } from '../../definition/types.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../../definition/types.js';
import { runCodeAgent } from '../loop/code-agent-runner.js';
import { PROMPT_INPUT } from '../prompt/inputs.js';
import type { RunOptions } from '../loop/run-options.js';
import type { RunResult } from '../../contracts/run-result.js';
import { WorkflowAgent } from './workflow-agent.js';

/** Runs a workflow definition: the same services, events and result as any agent. */
export function runWorkflow(
  definition: AgentDefinition & { workflow: WorkflowConfig },
  options: RunOptions,
): Promise<RunResult> {
  const inputs = options.inputs ?? {};
  const prompt =
    typeof inputs[PROMPT_INPUT] === 'string' ? inputs[PROMPT_INPUT] : JSON.stringify(inputs);
  const ownBudgetMs = (definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES) * 60_000;
  return runCodeAgent(
    new WorkflowAgent(definition, definition.workflow, options.state),
    {
      prompt,
      inputs,
      ...(options.history ? { history: options.history } : {}),
      ...(options.memory ? { memory: options.memory } : {}),
    },
    { ...options, timeBudgetMs: Math.min(ownBudgetMs, options.timeBudgetMs ?? Infinity) },
  );
}
