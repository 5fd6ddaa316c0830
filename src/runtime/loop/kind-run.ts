import type { AgentKind } from '../../contracts/agent-kind.js';
import type { AgentDefinition } from '../../definition/types.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../../definition/types.js';
import type { CodeAgentRun } from './code-agent-runner.js';
import type { ExecutionOptions } from './run-options.js';
import { codeAgentInput } from '../prompt/code-agent-input.js';

/** A definition of a registered kind (remote) as the code agent the executor runs (like a workflow). */
export async function kindRun(
  definition: AgentDefinition,
  kind: AgentKind,
  options: ExecutionOptions,
): Promise<CodeAgentRun> {
  const ownBudgetMs = (definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES) * 60_000;
  return {
    agent: await kind(definition),
    input: codeAgentInput(options.inputs ?? {}, options),
    options: { ...options, timeBudgetMs: Math.min(ownBudgetMs, options.timeBudgetMs ?? Infinity) },
  };
}
