import { fileTools } from '../../tools/builtin/builtin-tools.js';
import type { Agent, AgentContext, AgentEntry, AgentInput } from '../../contracts/agent.js';
import type { AgentEventInput } from '../../events/types.js';
import {
  DEEP_RESEARCH_DESCRIPTION,
  DEEP_RESEARCH_NAME,
  deepResearchConfig,
  type DeepResearchOptions,
} from './deep-research-config.js';
import {
  checkReactOptions,
  REACT_DESCRIPTION,
  REACT_NAME,
  type ReactConfig,
} from './react-config.js';

export {
  DEEP_RESEARCH_DEFAULTS,
  type DeepResearchConfig,
  type DeepResearchOptions,
  type PhaseBudgets,
} from './deep-research-config.js';
export type { SubQueryOutcome } from './sub-queries.js';
export type { ReactConfig } from './react-config.js';

/*
 * The public built-in agent classes. Same constructors (options are checked
 * there, as before) and surface as the ones in deep-research.ts and
 * react.ts, which load on the first `execute`: importing the package does
 * not load agents a plain run never uses.
 */

export class DeepResearchAgent implements Agent {
  readonly name = DEEP_RESEARCH_NAME;
  readonly description = DEEP_RESEARCH_DESCRIPTION;

  private readonly options: DeepResearchOptions;

  constructor(options: DeepResearchOptions = {}) {
    deepResearchConfig(options);
    // A copy: what the caller changes later does not reach a run, as with the real class.
    this.options = { ...options };
  }

  async *execute(input: AgentInput, ctx: AgentContext): AsyncIterable<AgentEventInput> {
    const { DeepResearchAgent: Agent } = await import('./deep-research.js');
    yield* new Agent(this.options).execute(input, ctx);
  }
}

export class ReactAgent implements Agent {
  readonly name = REACT_NAME;
  readonly description = REACT_DESCRIPTION;

  private readonly options: Partial<ReactConfig>;

  constructor(options: Partial<ReactConfig> = {}) {
    checkReactOptions(options);
    this.options = { ...options, ...(options.tools ? { tools: [...options.tools] } : {}) };
  }

  async *execute(input: AgentInput, ctx: AgentContext): AsyncIterable<AgentEventInput> {
    const { ReactAgent: Agent } = await import('./react.js');
    yield* new Agent(this.options).execute(input, ctx);
  }
}

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
