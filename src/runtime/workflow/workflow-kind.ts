import { ownTimeBudgetMs, type AgentKind } from '../../contracts/agent-kind.js';
import { ConfigError } from '../../errors/cadre-error.js';
import { WorkflowAgent } from './workflow-agent.js';

/** A workflow (ADK Sequential, Parallel, Loop): its agents run as children, in its own time. */
export const workflowKind: AgentKind = (definition, setting) => {
  const { workflow } = definition;
  if (!workflow) throw new ConfigError(`${definition.name} is not a workflow (it has no agents).`);
  return {
    agent: new WorkflowAgent(definition, workflow, setting.state),
    timeBudgetMs: ownTimeBudgetMs(definition),
  };
};
