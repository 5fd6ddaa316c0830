import { AGENT_TOOL } from './adk-toolsets.js';
import { isRecord } from './describe-value.js';
import { errorAt, warningAt, type PendingIssue } from './issues.js';
import type { AgentDefinition } from './types.js';

type LoadAt = (configPath: string, at: (string | number)[]) => Promise<AgentDefinition | undefined>;

/**
 * ADK's agent-as-tool: `tools: [{name: AgentTool, args: {agent: {config_path: …}}}]`
 * (the `tool_agent_tool_config` sample). Each referenced agent file is
 * loaded like a sub-agent and becomes a tool the agent calls. An agent given
 * as Python `code:` cannot be imported: a warning. A missing `config_path`
 * is an error, as a sub-agent's is.
 */
export async function adkAgentTools(
  tools: unknown,
  pending: PendingIssue[],
  loadAt: LoadAt,
): Promise<AgentDefinition[]> {
  if (!Array.isArray(tools)) return [];
  const agents: AgentDefinition[] = [];
  for (const [index, item] of tools.entries()) {
    if (!isRecord(item) || item.name !== AGENT_TOOL) continue;
    const at = ['tools', index, 'args', 'agent'];
    const agent = isRecord(item.args) ? item.args.agent : undefined;
    const configPath = isRecord(agent) ? agent.config_path : undefined;
    if (isRecord(agent) && typeof agent.code === 'string' && configPath === undefined) {
      pending.push(
        warningAt(
          [...at, 'code'],
          `AgentTool agent ${agent.code} is Python code, which Cadre cannot import; left out`,
        ),
      );
      continue;
    }
    if (typeof configPath !== 'string' || !configPath.trim()) {
      pending.push(
        errorAt(
          configPath === undefined ? ['tools', index] : [...at, 'config_path'],
          "AgentTool needs args.agent.config_path: the path of the agent's YAML file, relative to this one",
        ),
      );
      continue;
    }
    const loaded = await loadAt(configPath, at);
    if (loaded && !agents.some((a) => a.name === loaded.name)) agents.push(loaded);
  }
  return agents;
}
