import type { AgentDefinition } from '../../definition/types.js';
import type { ToolDeclaration } from '../../model/types.js';
import type { FixedTokens } from '../compaction/measure-request.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import type { Tool } from '../../tools/types.js';

/**
 * What a run offers the model, read-only once built: its registry, the
 * declarations sent with every request and their names. Runs of one
 * definition granted the same tool objects share one, so a waiting run holds
 * no copy of its own.
 */
export interface ToolSet {
  readonly tools: readonly Tool[];
  readonly completion: readonly ToolDeclaration[];
  readonly registry: ToolRegistry;
  readonly declarations: readonly ToolDeclaration[];
  readonly offered: ReadonlySet<string>;
  /** The system prompt's and declarations' estimate, the latest any of its runs measured. */
  readonly fixedTokens: { last?: FixedTokens };
}

/** Where a runtime keeps the last tool set of each definition. */
export type ToolSets = WeakMap<AgentDefinition, ToolSet>;

/**
 * The tool set of a run granted `tools` plus the `completion` declarations:
 * the definition's kept one when it holds the very same objects, else a new
 * one, kept for the runs after.
 */
export function toolSetFor(
  definition: AgentDefinition,
  tools: readonly Tool[],
  completion: readonly ToolDeclaration[],
  declarationCache: WeakMap<Tool, ToolDeclaration>,
  kept: ToolSets | undefined,
): ToolSet {
  const found = kept?.get(definition);
  if (found && sameItems(found.tools, tools) && sameItems(found.completion, completion))
    return found;
  const registry = new ToolRegistry(tools);
  const declarations = registry.declarations(declarationCache);
  for (const declaration of completion) declarations.push(declaration);
  const set: ToolSet = {
    tools,
    completion,
    registry,
    declarations,
    offered: new Set(declarations.map((d) => d.name)),
    fixedTokens: {},
  };
  kept?.set(definition, set);
  return set;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
