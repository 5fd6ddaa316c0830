import type { Agent, AgentLookup } from './agent.js';
import type { AgentDefinition } from '../definition/types.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../definition/types.js';
import type { RouterOptions } from './router-options.js';

/** What a kind may read of the run it starts (never change). */
export interface KindSetting {
  /** The agents the run may call by name (a router's domains). */
  agents?: AgentLookup;
  /** The state the run starts from (an enclosing workflow's). */
  state?: Readonly<Record<string, unknown>>;
  /** How a router routes, as the run's caller asked. */
  router?: RouterOptions;
}

/** The code agent a definition runs as, and how its run is set up. */
export interface KindAgent {
  agent: Agent;
  /** The model its own calls use (default: the run's). */
  modelName?: string;
  /** The longest the run may take (a child still gets no more than its parent has left). */
  timeBudgetMs?: number;
}

/**
 * A kind of declarative agent that runs as a code agent made from its
 * definition: router, workflow, remote (A2A), or one of a caller's own. The
 * executor knows kinds only through this: the built-in ones are registered
 * by default, the layers above add theirs in the run options (`adapters`).
 */
export type AgentKind = (
  definition: AgentDefinition,
  setting: KindSetting,
) => KindAgent | Promise<KindAgent>;

/**
 * The kinds a run may meet, by name: the built-in ones are marked by a
 * definition field (`router`, `workflow`, `remote`), the others by `kind`.
 */
export interface AgentKinds {
  readonly [name: string]: AgentKind | undefined;
  router?: AgentKind;
  workflow?: AgentKind;
  remote?: AgentKind;
}

/** The time a definition gives its own run (`max_time_minutes`, or the default). */
export const ownTimeBudgetMs = (definition: AgentDefinition): number =>
  (definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES) * 60_000;
