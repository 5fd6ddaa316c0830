import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../errors/validation-error.js';
import {
  DEFINITION_EXTENSIONS,
  loadDefinition,
  MODULE_EXTENSIONS,
} from './load-definition-file.js';
import type { LoadOptions, LoadResult } from './load-options.js';

export interface DirectoryLoad {
  loaded: LoadResult[];
  failed: { file: string; error: ValidationError }[];
}

/** Definition files in a folder: not `_draft.yaml`, `.hidden`, tests or type declarations. */
export function isDefinitionFileName(name: string): boolean {
  if (name.startsWith('_') || name.startsWith('.')) return false;
  if (/\.(test|spec)\.[cm]?[jt]s$/.test(name) || /\.d\.[cm]?ts$/.test(name)) return false;
  return DEFINITION_EXTENSIONS.includes(path.extname(name).toLowerCase());
}

/**
 * Loads every definition file in `dir` (not recursive), in name order. One
 * bad file does not stop the others: it is listed under `failed`. With
 * `modules: false`, TS / JS files are left alone (not imported, not listed).
 */
export async function loadDefinitionsFromDir(
  dir: string,
  options: LoadOptions = {},
): Promise<DirectoryLoad> {
  const cwd = options.cwd ?? process.cwd();
  const absolute = path.resolve(cwd, dir);
  const entries = await readdir(absolute, { withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && isDefinitionFileName(entry.name))
    // Data files only where modules are off: listing a module as "failed" would still be noise.
    .filter(
      (entry) =>
        options.modules !== false ||
        !MODULE_EXTENSIONS.includes(path.extname(entry.name).toLowerCase()),
    )
    .map((entry) => path.join(absolute, entry.name))
    .sort();
  const result: DirectoryLoad = { loaded: [], failed: [] };
  for (const file of files) {
    // An untrusted module is left out quietly here: the gate reports it once, with how to trust it.
    const module = MODULE_EXTENSIONS.includes(path.extname(file).toLowerCase());
    if (module && options.gate && !(await options.gate.allows(file, 'agent module'))) continue;
    try {
      result.loaded.push(await loadDefinition(file, options));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      result.failed.push({ file, error });
    }
  }
  return result;
}
