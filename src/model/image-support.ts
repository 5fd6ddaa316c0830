import path from 'node:path';
import { readTextSync } from '../util/builtins-on-demand.js';

/** Model id (or id prefix) → whether it takes images; a model in no entry is taken to. */
export type ImageSupportTable = Readonly<Record<string, boolean>>;

/**
 * Models known to take text only, from the providers' model pages. A
 * project marks its own in `.cadre/models.json` (`{"my-model": {"images":
 * false}}`), or says `true` of one listed here.
 */
export const TEXT_ONLY_MODELS: ImageSupportTable = Object.freeze({
  'o1-mini': false,
  'o3-mini': false,
  'gpt-3.5-turbo': false,
});

const MODELS_FILE = path.join('.cadre', 'models.json');

const bareId = (model: string): string =>
  model
    .replace(/^[a-z][a-z0-9_-]*:/i, '')
    .trim()
    .toLowerCase();

/** Whether `model` takes images: its own entry, else the longest entry it starts with, else yes. */
export function acceptsImages(model: string, table: ImageSupportTable): boolean {
  const id = bareId(model);
  if (Object.hasOwn(table, id)) return table[id] ?? true;
  let best: string | undefined;
  for (const key of Object.keys(table))
    if (id.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? true : (table[best] ?? true);
}

/**
 * The built-in table with the project's `.cadre/models.json` `images` flags
 * on top. Read when a model is resolved (once per model string: resolvers
 * cache), synchronously because resolving is; the file's other fields and
 * its faults are the context-window loader's to report.
 */
export function projectImageSupport(cwd: string | undefined): ImageSupportTable {
  if (!cwd) return TEXT_ONLY_MODELS;
  let data: unknown;
  try {
    data = JSON.parse(readTextSync(path.resolve(cwd, MODELS_FILE)));
  } catch {
    return TEXT_ONLY_MODELS;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return TEXT_ONLY_MODELS;
  const own: Record<string, boolean> = {};
  for (const [model, entry] of Object.entries(data)) {
    const images = (entry as { images?: unknown } | null)?.images;
    if (typeof images === 'boolean') own[model.toLowerCase()] = images;
  }
  return { ...TEXT_ONLY_MODELS, ...own };
}
