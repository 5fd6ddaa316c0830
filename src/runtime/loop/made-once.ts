import type { AgentDefinition } from '../../definition/types.js';
import type { ToolDeclaration } from '../../model/types.js';
import type { Tool } from '../../tools/types.js';
import {
  completionDeclarations,
  completionProtocol,
  type CompletionProtocol,
} from '../completion/completion.js';
import type { SchemaValidator } from '../completion/schema-validator.js';

/**
 * What a run builds from its definition that is the same for every run of
 * it: the completion protocol with its declarations, and the tools a grant
 * makes (an agent offered as a tool, `task`). Kept per runtime, so runs of
 * one definition offer the very same objects and share one tool set
 * (shared-tool-set.ts) instead of each holding a copy.
 */
export interface MadeOnce {
  completions: WeakMap<AgentDefinition, Completion>;
  /** Keyed by what the tool is made from: a sub-agent's definition, an agent entry, the agent lookup. */
  tools: WeakMap<object, { key: string; tool: Tool }>;
}

/** How a definition's runs finish, and the tools that finishing offers. */
export interface Completion {
  protocol: CompletionProtocol;
  declarations: readonly ToolDeclaration[];
}

export function madeOnce(): MadeOnce {
  return { completions: new WeakMap(), tools: new WeakMap() };
}

/** The definition's completion, built on its first run (a zod schema converts asynchronously). */
export function completionOf(
  definition: AgentDefinition,
  validator: SchemaValidator,
  made: MadeOnce | undefined,
): Completion | Promise<Completion> {
  const kept = made?.completions.get(definition);
  if (kept) return kept;
  const keep = (protocol: CompletionProtocol): Completion => {
    const completion = { protocol, declarations: completionDeclarations(protocol) };
    made?.completions.set(definition, completion);
    return completion;
  };
  const pending = completionProtocol(definition, validator);
  return pending instanceof Promise ? pending.then(keep) : keep(pending);
}

/**
 * The tool made from `source` (under `key`, which names what else it was made
 * from): the kept one when there is one, else `make()`'s, kept.
 */
export function toolMadeOnce(
  made: MadeOnce | undefined,
  source: object,
  key: string,
  make: () => Tool,
): Tool {
  const kept = made?.tools.get(source);
  if (kept?.key === key) return kept.tool;
  const tool = make();
  made?.tools.set(source, { key, tool });
  return tool;
}
