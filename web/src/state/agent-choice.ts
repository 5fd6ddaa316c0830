import type { AgentView } from '../api/wire-types.js';

/** The name a person reads: the display name when the agent has one. */
export const agentLabel = (agent: AgentView): string => agent.displayName ?? agent.name;

/** The server's default agent (the picker's empty value), when the server lists it. */
export const defaultAgent = (agents: readonly AgentView[]): AgentView | undefined =>
  agents.find((agent) => agent.default === true);

/** The agent a run will get: the one picked, else the server's default. */
export function chosenAgent(agents: readonly AgentView[], value: string): AgentView | undefined {
  return value ? agents.find((a) => a.name === value && !a.default) : defaultAgent(agents);
}
