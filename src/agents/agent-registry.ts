import type { AgentEntry, AgentLookup } from '../contracts/agent.js';

/** Where an agent came from, highest precedence first. */
export type AgentOrigin = 'project' | 'user' | 'builtin' | 'code';

const RANK: Record<AgentOrigin, number> = { code: 0, project: 1, user: 2, builtin: 3 };

export interface RegisteredAgent {
  entry: AgentEntry;
  origin: AgentOrigin;
  /** The file it was loaded from, if any. */
  file?: string;
}

/**
 * Agents by name. A later registration with higher precedence replaces an
 * earlier one (project over user over built-in) and says so once; a lower
 * one is ignored. Entries are factories: a code agent gets a fresh instance per run.
 */
export class AgentRegistry implements AgentLookup {
  private readonly agents = new Map<string, RegisteredAgent>();

  constructor(private readonly onOverride: (message: string) => void = () => {}) {}

  register(agent: RegisteredAgent): void {
    const name = nameOf(agent.entry);
    const existing = this.agents.get(name);
    if (existing) {
      // Higher precedence wins; on a tie the first found (the folder searched first) stays.
      const [winner, loser] =
        RANK[agent.origin] < RANK[existing.origin] ? [agent, existing] : [existing, agent];
      this.onOverride(
        `agent '${name}' from ${describe(winner)} overrides the one from ${describe(loser)}`,
      );
      this.agents.set(name, winner);
      return;
    }
    this.agents.set(name, agent);
  }

  get(name: string): AgentEntry | undefined {
    return this.agents.get(name)?.entry;
  }

  names(): string[] {
    return [...this.agents.keys()];
  }

  list(): RegisteredAgent[] {
    return [...this.agents.values()];
  }
}

export const nameOf = (entry: AgentEntry): string =>
  entry.kind === 'definition' ? entry.definition.name : entry.name;

function describe(agent: RegisteredAgent): string {
  return agent.file ? `${agent.origin} (${agent.file})` : agent.origin;
}
