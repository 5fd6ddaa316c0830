import type { FileGate } from '../contracts/file-gate.js';
import path from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';

/** Model id (or id prefix) → context window in tokens. */
export type ContextWindowTable = Readonly<Record<string, number>>;

/** Where a project sets its models' context windows. */
const PROJECT_MODELS_FILE = path.join('.cadre', 'models.json');

/**
 * Input tokens a model accepts, from the providers' model pages. A model
 * matches its own id or the longest id it starts with, as prices do; a
 * project overrides or adds models in `.cadre/models.json`.
 */
export const DEFAULT_CONTEXT_WINDOWS: ContextWindowTable = Object.freeze({
  'gemini-2.5-pro': 1_048_576,
  'gemini-2.5-flash': 1_048_576,
  'gemini-2.5-flash-lite': 1_048_576,
  'gemini-2.0-flash': 1_048_576,
  'gemini-2.0-flash-lite': 1_048_576,
  'gpt-4.1': 1_047_576,
  'gpt-4.1-mini': 1_047_576,
  'gpt-4.1-nano': 1_047_576,
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  o3: 200_000,
  'o3-pro': 200_000,
  'o4-mini': 200_000,
  'claude-opus-4': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-4': 200_000,
  'claude-3-5-haiku': 200_000,
});

const bareId = (model: string): string =>
  model
    .replace(/^[a-z][a-z0-9_-]*:/i, '')
    .trim()
    .toLowerCase();

/** The context window of `model`: its own entry, else the longest entry it starts with. */
export function contextWindowFor(model: string, table: ContextWindowTable): number | undefined {
  const id = bareId(model);
  if (Object.hasOwn(table, id)) return table[id];
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (id.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * The built-in windows with `.cadre/models.json` on top: `{"model-id":
 * {"contextWindow": tokens, "images": false}}` (an entry may give only
 * one of them). No file means the built-ins; a bad entry is an error naming the
 * file and the model.
 */
export async function loadContextWindows(
  cwd: string,
  /** Workspace trust: the project's file is read only when it allows it. */
  gate?: FileGate,
): Promise<ContextWindowTable> {
  if (gate && !(await gate.allows(path.resolve(cwd, PROJECT_MODELS_FILE), 'models')))
    return DEFAULT_CONTEXT_WINDOWS;
  let text: string;
  try {
    // Imported on first use, not with the package entry.
    const { readFile } = await import('node:fs/promises');
    text = await readFile(path.resolve(cwd, PROJECT_MODELS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_CONTEXT_WINDOWS;
    throw new ConfigError(`Model file not readable: ${PROJECT_MODELS_FILE}`);
  }
  return { ...DEFAULT_CONTEXT_WINDOWS, ...parseContextWindows(text, PROJECT_MODELS_FILE) };
}

export function parseContextWindows(text: string, file: string): Record<string, number> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(data)) throw new ConfigError(`${file}: expected a mapping of model ids`);
  const windows: Record<string, number> = {};
  for (const [model, entry] of Object.entries(data)) {
    const tokens = isRecord(entry) ? entry.contextWindow : undefined;
    // `images` is the model clients' (src/model/image-support.ts); checked here, where the file is.
    const images = isRecord(entry) ? entry.images : undefined;
    if (images !== undefined && typeof images !== 'boolean')
      throw new ConfigError(`${file}: ${model}: "images" must be true or false`);
    if (tokens === undefined && images !== undefined) continue;
    if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens <= 0)
      throw new ConfigError(`${file}: ${model}: expected {"contextWindow": tokens}`);
    windows[model.toLowerCase()] = tokens;
  }
  return windows;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
