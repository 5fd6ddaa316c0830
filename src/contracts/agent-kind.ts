import type { Agent } from './agent.js';
import type { AgentDefinition } from '../definition/types.js';

/**
 * A kind of declarative agent that runs as a code agent made from its
 * definition (a remote A2A agent). The runtime knows kinds only through
 * this; the layers above register them in the run options (`adapters`).
 */
export type AgentKind = (definition: AgentDefinition) => Agent | Promise<Agent>;

/** The kinds a run may meet, by the definition field that marks them. */
export interface AgentKinds {
  remote?: AgentKind;
}
