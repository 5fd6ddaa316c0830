import type { AgentKind } from '../../contracts/agent-kind.js';
import { ConfigError } from '../../errors/cadre-error.js';
import { LoadedRouterAgent } from './router-agent.js';

/** `kind: router`: the routing code agent, on the router's own model unless the caller picks one. */
export const routerKind: AgentKind = (definition, setting) => {
  const { router } = definition;
  if (!router) throw new ConfigError(`${definition.name} is not a router (it has no domains).`);
  const agent = new LoadedRouterAgent({ ...definition, router }, setting.agents, {
    ...(definition.runConfig?.execution_mode === 'threads'
      ? { executionMode: 'threads' as const }
      : {}),
    ...setting.router,
  });
  const modelName = setting.router?.models?.router ?? definition.modelConfig?.model;
  return { agent, ...(modelName ? { modelName } : {}) };
};
