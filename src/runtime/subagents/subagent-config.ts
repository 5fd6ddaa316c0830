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
