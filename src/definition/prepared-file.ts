import type { DefinitionSource, RemoteAgentConfig } from './types.js';
import type { PreparedDefinition } from './validate-definition.js';

/** What each format reader hands to the shared checks. */
export interface PreparedFile {
  prepared: PreparedDefinition;
  source: DefinitionSource;
  /** A remote agent's card (Gemini CLI `kind: remote`). */
  remote?: RemoteAgentConfig;
}
