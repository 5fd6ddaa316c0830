/**
 * What follows `local:` in a model string: a GGUF file on disk
 * (`./model.gguf`, relative to the project folder) or a model URI that
 * node-llama-cpp resolves against the hub (`hf:<user>/<repo>:<quant>`,
 * `hf:<user>/<repo>/<file>.gguf`, an https URL). URIs are pulled into one
 * cache folder with `cadre models pull`. A short alias (`qwen3-0.6b`, see
 * local-model-aliases.ts) stands for its hub URI.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../errors/index.js';
import type { LlamaLibrary } from './local-model-host.js';
import { localModelAlias } from './local-model-aliases.js';

type ModelEnv = Readonly<Record<string, string | undefined>>;

export type LocalModelRef = { kind: 'file'; path: string } | { kind: 'uri'; uri: string };

const URI = /^(hf:|hf\.co\/|huggingface:|huggingface\.co\/|https?:\/\/)/i;

export function parseLocalModel(spec: string, cwd: string = process.cwd()): LocalModelRef {
  const text = spec.trim();
  if (text === '')
    throw new ConfigError(
      'local: names no model: use local:./model.gguf or local:hf:<user>/<repo>:<quant>.',
    );
  if (URI.test(text)) return { kind: 'uri', uri: text };
  const aliased = localModelAlias(text);
  if (aliased) return { kind: 'uri', uri: aliased };
  return { kind: 'file', path: path.resolve(cwd, expandHome(text)) };
}

const expandHome = (file: string): string =>
  file === '~' || file.startsWith('~/') ? path.join(homedir(), file.slice(1)) : file;

/**
 * Where pulled models live: CADRE_MODELS_DIR, else the user's cache folder
 * (`$XDG_CACHE_HOME/cadre/models`, `~/Library/Caches/cadre/models` on macOS,
 * `%LOCALAPPDATA%\cadre\models` on Windows, `~/.cache/cadre/models`).
 */
export function modelsDir(env: ModelEnv, platform: NodeJS.Platform = process.platform): string {
  const named = env.CADRE_MODELS_DIR?.trim();
  if (named) return path.resolve(named);
  const xdg = env.XDG_CACHE_HOME?.trim();
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'cadre', 'models');
  const home = env.HOME?.trim() || homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'cadre', 'models');
  const local = env.LOCALAPPDATA?.trim();
  if (platform === 'win32' && local) return path.join(local, 'cadre', 'models');
  return path.join(home, '.cache', 'cadre', 'models');
}

/** The hub node-llama-cpp resolves `hf:` URIs against: MODEL_ENDPOINT, else HF_ENDPOINT, else its default. */
export function hubEndpoint(env: ModelEnv): string | undefined {
  return env.MODEL_ENDPOINT?.trim() || env.HF_ENDPOINT?.trim() || undefined;
}

/** The file to load for a `local:` model; a URI must have been pulled into the models folder. */
export async function localModelPath(
  ref: LocalModelRef,
  env: ModelEnv,
  lib: () => Promise<LlamaLibrary>,
): Promise<string> {
  if (ref.kind === 'file') {
    const { access } = await import('node:fs/promises');
    try {
      await access(ref.path);
    } catch {
      throw new ConfigError(
        `No model file at ${ref.path}: give a .gguf file, or a hub model as local:hf:<user>/<repo>:<quant>.`,
      );
    }
    return ref.path;
  }
  const { resolveModelFile } = await lib();
  const endpoint = hubEndpoint(env);
  try {
    return await resolveModelFile(ref.uri, {
      directory: modelsDir(env),
      download: false,
      cli: false,
      ...(endpoint ? { endpoints: { huggingFace: endpoint } } : {}),
    });
  } catch (error) {
    throw new ConfigError(
      `The model ${ref.uri} is not downloaded yet: run \`cadre models pull ${ref.uri}\` first.`,
      { cause: error },
    );
  }
}
