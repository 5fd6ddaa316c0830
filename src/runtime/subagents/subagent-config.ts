import { ToolSets, type ToolSet } from './tool-set.js';

/** What a spawned subagent may do (authoring guide 002). */
export interface SubagentConfig {
  tools: ToolSet;
  /** May the child spawn subagents of its own? */
  allowNested: boolean;
  /** Upper bound on the child's run time; the parent's remaining budget bounds it too. */
  timeoutMs?: number;
}

export const SubagentConfigs = {
  /** Inherit the parent's tools, allow nesting. */
  default: (): SubagentConfig => ({ tools: ToolSets.inherit, allowNested: true }),
  /** No tools, no nesting. */
  restrictive: (): SubagentConfig => ({ tools: ToolSets.none, allowNested: false }),
  /** Every tool the parent has, nesting allowed (a child still never exceeds its parent). */
  permissive: (): SubagentConfig => ({ tools: ToolSets.all, allowNested: true }),
};

/**
 * The spawn fields a config stands for. For an ephemeral agent the tool set
 * is its own choice; for a named agent it narrows the agent's own grant.
 * Either way it is resolved against the caller at spawn and never exceeds it.
 */
export function spawnFieldsFrom(
  config: SubagentConfig,
  ephemeral: boolean,
): { tools?: ToolSet; narrowTo?: ToolSet; allowNested: boolean; timeoutMs?: number } {
  return {
    ...(ephemeral
      ? { tools: config.tools }
      : config.tools.kind === 'inherit'
        ? {}
        : { narrowTo: config.tools }),
    allowNested: config.allowNested,
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
  };
}
