import { fileTools } from '../../tools/builtin/builtin-tools.js';
import type { AgentEntry } from '../../contracts/agent.js';
import { DEEP_RESEARCH_DESCRIPTION, DEEP_RESEARCH_NAME } from './deep-research-config.js';
import { DeepResearchAgent, ReactAgent } from './lazy-agents.js';
import { REACT_DESCRIPTION, REACT_NAME } from './react-config.js';

export { DeepResearchAgent, ReactAgent } from './lazy-agents.js';
export {
  DEEP_RESEARCH_DEFAULTS,
  type DeepResearchConfig,
  type DeepResearchOptions,
  type PhaseBudgets,
} from './deep-research-config.js';
export type { SubQueryOutcome } from './sub-queries.js';
export type { ReactConfig } from './react-config.js';

/**
 * The built-in code agents, as registry entries (a fresh instance per run).
 * `react` gets the read-only file tools only: it has no approval path.
 */
export function builtinAgentEntries(): AgentEntry[] {
  return [
    {
      kind: 'code',
      name: DEEP_RESEARCH_NAME,
      description: DEEP_RESEARCH_DESCRIPTION,
      create: () => new DeepResearchAgent(),
    },
    {
      kind: 'code',
      name: REACT_NAME,
      description: REACT_DESCRIPTION,
      create: () => new ReactAgent({ tools: fileTools.filter((tool) => !tool.sideEffect) }),
    },
  ];
}
