import { ownTimeBudgetMs, type AgentKind } from '../contracts/agent-kind.js';
import { ConfigError } from '../errors/cadre-error.js';
import { RemoteAgent } from './remote-agent.js';

/** A remote (A2A) definition as the agent it runs as: the kind the layers above register. */
export const remoteKind: AgentKind = (definition) => {
  if (!definition.remote) throw new ConfigError(`${definition.name} is not a remote agent.`);
  return {
    agent: new RemoteAgent(definition, definition.remote),
    timeBudgetMs: ownTimeBudgetMs(definition),
  };
};
