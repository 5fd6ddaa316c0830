/**
 * The loading API in one place (what the CLI and the library entry import).
 * The format readers behind it load lazily.
 */
export { loadDefinition, DEFINITION_EXTENSIONS } from './load-definition-file.js';
export {
  loadDefinitionsFromDir,
  isDefinitionFileName,
  type DirectoryLoad,
} from './load-definitions-from-dir.js';
export { validateDefinitionObject } from './validate-definition.js';
export type { LoadOptions, LoadResult, ValidateOptions } from './load-options.js';
