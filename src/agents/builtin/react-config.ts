import { ConfigError } from '../../errors/cadre-error.js';
import type { Tool } from '../../tools/types.js';

export const REACT_NAME = 'react';
export const REACT_DESCRIPTION =
  'Solves a task by reasoning and acting in a loop (thought → action → observation) with ' +
  'read-only tools, until it can give a final answer.';

export interface ReactConfig {
  maxIterations: number;
  /** Tools it may name; side-effecting ones are refused when called (there is no approval path). */
  tools: readonly Tool[];
  systemPrompt: string;
  /** Absent: the run's model. */
  model?: string;
  /** Root the file tools are confined to; default: the current directory. */
  workspace?: string;
}

export const DEFAULT_MAX_ITERATIONS = 10;

/** Throws a ConfigError when `options` cannot make a ReAct agent: said at construction, not at the first run. */
export function checkReactOptions(options: Partial<ReactConfig>): void {
  // The same defaulting as the agent's own, so an explicit `undefined` is judged alike.
  const { maxIterations, tools } = { maxIterations: DEFAULT_MAX_ITERATIONS, tools: [], ...options };
  const problems: string[] = [];
  if (!Number.isInteger(maxIterations) || maxIterations < 1)
    problems.push('maxIterations must be an integer of at least 1');
  const names = tools.map((t) => t.name);
  const repeated = names.filter((name, i) => names.indexOf(name) !== i);
  if (repeated.length > 0) problems.push(`tools named twice: ${[...new Set(repeated)].join(', ')}`);
  if (problems.length > 0) throw new ConfigError(`Invalid react config: ${problems.join('; ')}.`);
}
