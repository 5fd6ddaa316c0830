import { ValidationError } from '../errors/validation-error.js';
import { isDefinedAgent } from './define-agent.js';
import { isPlainObject } from './describe-value.js';
import type { LoadOptions, LoadResult } from './load-options.js';
import { displayFile } from './validate-context.js';
import { moduleAliases } from './module-aliases.js';
import { validateDefinitionObject } from './validate-definition.js';

const fail = (file: string, options: LoadOptions, message: string): never => {
  throw new ValidationError([
    {
      path: '',
      message,
      file: displayFile(file, options.cwd ?? process.cwd()) ?? file,
      severity: 'error',
    },
  ]);
};

/**
 * A TS / JS module whose default export (or `agent` export) is a
 * `defineAgent({...})` result. jiti is imported here, on first use only, so
 * the runtime's cold start never pays for a TypeScript transpiler.
 */
export async function loadModuleDefinition(
  file: string,
  options: LoadOptions,
): Promise<LoadResult> {
  const { createJiti } = await import('jiti');
  const jiti = createJiti(import.meta.url, {
    moduleCache: false,
    fsCache: false,
    alias: moduleAliases(file),
  });
  let exports: unknown;
  try {
    exports = await jiti.import(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return fail(file, options, `the module failed to load: ${reason}`);
  }
  const module = (exports ?? {}) as Record<string, unknown>;
  // jiti's interop may hand back the exports object as `default`, so a plain
  // object counts only when it looks like a definition (has a name).
  const looksLikeDefinition = (value: unknown): boolean =>
    isPlainObject(value) && typeof value.name === 'string';
  const candidates = [module.default, module.agent];
  const candidate = candidates.find(isDefinedAgent) ?? candidates.find(looksLikeDefinition);
  if (candidate === undefined) {
    return fail(
      file,
      options,
      'expected `export default defineAgent({...})` (or `export const agent = defineAgent({...})`)',
    );
  }
  return validateDefinitionObject(candidate, { ...options, source: { file, format: 'module' } });
}
