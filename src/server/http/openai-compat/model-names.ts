import type { AgentView, RunService } from '../../run-service-types.js';

/** Model names that mean the server's default agent (the one a run without `agent` gets). */
const DEFAULT_AGENT_MODELS = ['cadre', 'default'] as const;

/** What a `model` names: the default agent, or one the run service knows. */
export type ModelTarget = { kind: 'default' } | { kind: 'agent'; name: string };

/**
 * Agents a run may name: definitions. Built-in code agents are listed by the
 * service but it runs definitions only (as for `/mcp`); the server's own
 * default (origin `default`) is `cadre` here.
 */
function runnableAgents(agents: readonly AgentView[]): AgentView[] {
  return agents.filter(
    (agent) => agent.origin !== 'builtin' && agent.origin !== 'code' && agent.origin !== 'default',
  );
}

/** An agent of that name wins over the default's aliases; undefined when nothing matches. */
export async function modelTarget(
  service: Pick<RunService, 'listAgents'>,
  model: string,
): Promise<ModelTarget | undefined> {
  const agents = runnableAgents(await service.listAgents());
  if (agents.some((agent) => agent.name === model)) return { kind: 'agent', name: model };
  return (DEFAULT_AGENT_MODELS as readonly string[]).includes(model)
    ? { kind: 'default' }
    : undefined;
}

/** `GET /v1/models`: the default agent as `cadre`, then every runnable agent. */
export async function modelList(
  service: Pick<RunService, 'listAgents'>,
): Promise<Array<{ id: string; description: string }>> {
  const agents = runnableAgents(await service.listAgents());
  const named = new Set(agents.map((agent) => agent.name));
  return [
    ...(named.has(DEFAULT_AGENT_MODELS[0])
      ? []
      : [{ id: DEFAULT_AGENT_MODELS[0], description: "The server's default agent." }]),
    ...agents.map((agent) => ({ id: agent.name, description: agent.description })),
  ];
}
