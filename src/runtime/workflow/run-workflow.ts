import type { AgentDefinition, WorkflowConfig } from '../../spec/types.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../../spec/types.js';
import { runCodeAgent } from '../code-agent-runner.js';
import { PROMPT_INPUT } from '../inputs.js';
import type { RunOptions } from '../run-options.js';
import type { RunResult } from '../run-result.js';
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
