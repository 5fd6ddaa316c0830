import type { AgentDefinition, RemoteAgentConfig } from '../definition/types.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../definition/types.js';
import type { CodeAgentRun } from '../runtime/loop/code-agent-runner.js';
import type { ExecutionOptions } from '../runtime/loop/run-options.js';
import { PROMPT_INPUT } from '../runtime/prompt/inputs.js';
import { RemoteAgent } from './remote-agent.js';

/** A remote definition as the code agent the executor runs (like a workflow). */
export function remoteRun(
  definition: AgentDefinition & { remote: RemoteAgentConfig },
  options: ExecutionOptions,
): CodeAgentRun {
  const inputs = options.inputs ?? {};
  const prompt =
    typeof inputs[PROMPT_INPUT] === 'string' ? inputs[PROMPT_INPUT] : JSON.stringify(inputs);
  const ownBudgetMs = (definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES) * 60_000;
  return {
    agent: new RemoteAgent(definition, definition.remote),
    input: { prompt, inputs, ...(options.history ? { history: options.history } : {}) },
    options: { ...options, timeBudgetMs: Math.min(ownBudgetMs, options.timeBudgetMs ?? Infinity) },
  };
}
