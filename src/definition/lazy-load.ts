import type { LoadOptions, LoadResult, ValidateOptions } from './load-definition.js';
import type { ValidationError } from '../errors/validation-error.js';

/*
 * The package entry's loaders. They import the definition machinery (zod,
 * yaml, Ajv) on first call, so `import 'cadre'` stays fast for code that
 * only runs agents. `cadre/definition` exports the synchronous originals.
 */

export async function loadDefinition(file: string, options?: LoadOptions): Promise<LoadResult> {
  return (await import('./load-definition.js')).loadDefinition(file, options);
}

export async function loadDefinitionsFromDir(
  dir: string,
  options?: LoadOptions,
): Promise<{ loaded: LoadResult[]; failed: Array<{ file: string; error: ValidationError }> }> {
  return (await import('./load-definition.js')).loadDefinitionsFromDir(dir, options);
}

/** Validates an in-code definition (a `defineAgent(...)` result or a plain object). */
export async function validateDefinition(
  raw: unknown,
  options?: ValidateOptions,
): Promise<LoadResult> {
  return (await import('./load-definition.js')).validateDefinitionObject(raw, options);
}
