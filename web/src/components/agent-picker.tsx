import type { AgentView } from '../api/wire-types.js';

interface Props {
  agents: AgentView[];
  value: string;
  onChange(name: string): void;
}

/** Empty means "the server's default agent"; the choice is sent as `agent` with the prompt. */
export function AgentPicker({ agents, value, onChange }: Props) {
  const chosen = agents.find((a) => a.name === value);
  return (
    <div className="agent-picker">
      <label htmlFor="agent">Agent</label>
      <select
        id="agent"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby="agent-description"
      >
        <option value="">Default agent</option>
        {agents.map((agent) => (
          <option key={agent.name} value={agent.name}>
            {agent.name}
          </option>
        ))}
      </select>
      <span id="agent-description" className="muted agent-description">
        {chosen?.description ?? 'The server picks its configured agent.'}
      </span>
    </div>
  );
}
