import type { ToolDeclaration } from '../../model/types.js';
import type { Tool } from '../../tools/types.js';
import { SchemaValidator } from '../completion/schema-validator.js';
import type { ToolSets } from './shared-tool-set.js';
import { madeOnce, type MadeOnce } from './made-once.js';

/**
 * Caches shared by many runs (compiled schemas). Create one per process or
 * server and pass it to every run; a run without one makes its own.
 */
export interface Runtime {
  validator: SchemaValidator;
  /** Tool declarations built once per tool, shared by every run's registry. */
  declarations: WeakMap<Tool, ToolDeclaration>;
  /** Each definition's registry and declarations, shared by its runs while its tools stay the same. */
  toolSets?: ToolSets;
  /** Each definition's completion and the tools its grants make, built on its first run. */
  made?: MadeOnce;
}

export async function createRuntime(): Promise<Runtime> {
  return {
    validator: await SchemaValidator.create(),
    declarations: new WeakMap(),
    toolSets: new WeakMap(),
    made: madeOnce(),
  };
}
