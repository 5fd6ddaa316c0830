import type { AgentView } from '../api/wire-types.js';
import { agentLabel, chosenAgent, defaultAgent } from '../state/agent-choice.js';

interface Props {
  agents: AgentView[];
  value: string;
  /** Inside a thread: its agent is shown, not changed (a thread keeps its agent). */
  locked?: boolean;
  onChange(name: string): void;
}

/** Empty means "the server's default agent", named as the server lists it; the choice is sent as `agent`. */
export function AgentPicker({ agents, value, locked = false, onChange }: Props) {
  const fallback = defaultAgent(agents);
  const chosen = chosenAgent(agents, value);
  return (
    <div className="agent-picker">
      <label htmlFor="agent">Agent</label>
      <select
        id="agent"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby="agent-description"
        disabled={locked}
      >
        <option value="">{fallback ? `${agentLabel(fallback)} (default)` : 'Default agent'}</option>
        {agents
          .filter((agent) => !agent.default)
          .map((agent) => (
            <option key={agent.name} value={agent.name}>
              {agentLabel(agent)}
            </option>
          ))}
      </select>
      <span id="agent-description" className="muted agent-description">
        {locked
          ? 'This thread keeps its agent: start a new thread to talk to another.'
          : (chosen?.description ?? 'The server picks its configured agent.')}
      </span>
    </div>
  );
}
