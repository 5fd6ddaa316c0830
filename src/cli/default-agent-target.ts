import { nameOf } from '../agents/agent-registry.js';
import { defaultAssistant } from '../agents/default-assistant.js';
import type { ProjectGate } from '../trust/project-gate.js';
import { agentEnvironment } from './agent-environment.js';
import { agentTarget, type AgentTarget } from './agent-target.js';
import type { CliIO } from './cli-io.js';

/**
 * The agent `cadre -p` runs, as `cadre chat` with no agent talks to:
 * `ACTIVE_AGENT_PATH` (a file or a name), else the built-in assistant,
 * routing over the project's own agents when it has any.
 */
export async function defaultAgentTarget(
  io: CliIO,
  warn: (line: string) => void,
  gate?: ProjectGate,
): Promise<AgentTarget> {
  const active = io.env.ACTIVE_AGENT_PATH;
  if (active) return agentTarget(active, io, warn, gate);
  const environment = await agentEnvironment(io, gate ? { gate } : {});
  environment.toolWarnings.forEach(warn);
  const own = environment.registry
    .list()
    .filter((agent) => agent.origin !== 'builtin')
    .map((agent) => nameOf(agent.entry));
  return { environment, definition: defaultAssistant(own) };
}
