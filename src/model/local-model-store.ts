/**
 * The models folder behind `cadre models pull|list|rm`: pulls a hub model
 * (resuming a cut download, checking the size), lists what is there, and
 * removes one file by its listed name. Only names inside the folder are
 * ever touched.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors/index.js';
import { optionalImport } from '../util/optional-import.js';
import { LLAMA_PACKAGE, type LlamaLibrary } from './local-model-host.js';
import { hubEndpoint, modelsDir } from './local-model-ref.js';
import { downloadResumable, type DownloadProgress } from './resumable-download.js';

type ModelEnv = Readonly<Record<string, string | undefined>>;

/** How far a pull is (the same figures a resumable download reports). */
export type PullProgress = DownloadProgress;

export interface PulledModel {
  file: string;
  bytes: number;
}

export interface StoredModel {
  name: string;
  file: string;
  bytes: number;
}

const loadLibrary = (): Promise<LlamaLibrary> =>
  optionalImport(() => import('node-llama-cpp'), LLAMA_PACKAGE);

/** Downloads `uri` (`hf:<user>/<repo>:<quant>`, an https URL) into the models folder. */
export async function pullModel(
  uri: string,
  env: ModelEnv,
  options: { onProgress?: (progress: PullProgress) => void; signal?: AbortSignal } = {},
): Promise<PulledModel> {
  const lib = await loadLibrary();
  const endpoint = hubEndpoint(env);
  const downloader = await lib.createModelDownloader({
    modelUri: uri,
    dirPath: modelsDir(env),
    showCliProgress: false,
    // A cut download keeps its part file, so the next pull resumes it.
    deleteTempFileOnCancel: false,
    ...(endpoint ? { endpoints: { huggingFace: endpoint } } : {}),
    ...(options.onProgress
      ? {
          onProgress: ({
            downloadedSize,
            totalSize,
          }: {
            downloadedSize: number;
            totalSize: number;
          }) => options.onProgress?.({ downloadedBytes: downloadedSize, totalBytes: totalSize }),
        }
      : {}),
  });
  const url = singleFileUrl(downloader);
  const file = url
    ? downloader.entrypointFilePath
    : await downloader.download(options.signal ? { signal: options.signal } : {});
  if (url && (await stat(file).catch(() => undefined))?.size !== downloader.totalSize) {
    // Our own fetch for a one-file model: a cut pull resumes with a Range request.
    const token = env.HF_TOKEN?.trim();
    await downloadResumable({
      url,
      dest: file,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
  const bytes = (await stat(file)).size;
  if (downloader.totalSize > 0 && bytes !== downloader.totalSize)
    throw new ConfigError(
      `The download of ${uri} is ${bytes} bytes, the hub said ${downloader.totalSize}: pull it again.`,
    );
  return { file, bytes };
}

/**
 * The URL of a model that is one file, which the library resolved from the
 * hub URI (it keeps it on the downloader, unlisted: checked here, and a
 * downloader without it, or a split model, is left to the library).
 */
function singleFileUrl(downloader: object): string | undefined {
  const info = downloader as {
    _modelUrl?: unknown;
    totalFiles?: unknown;
    splitBinaryParts?: unknown;
  };
  const url = info._modelUrl;
  if (info.totalFiles !== 1 || info.splitBinaryParts !== undefined) return undefined;
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : undefined;
}

/** The GGUF files in the models folder (part files of unfinished pulls left out). */
export async function listModels(env: ModelEnv): Promise<StoredModel[]> {
  const dir = modelsDir(env);
  const names = await readdir(dir).catch(() => [] as string[]);
  const models: StoredModel[] = [];
  for (const name of names.filter((n) => n.endsWith('.gguf')).sort()) {
    const file = path.join(dir, name);
    models.push({ name, file, bytes: (await stat(file)).size });
  }
  return models;
}

/** Removes one model by its listed name; a path or a name outside the folder is refused. */
export async function removeModel(name: string, env: ModelEnv): Promise<StoredModel> {
  if (name !== path.basename(name) || name.startsWith('.') || !name.endsWith('.gguf'))
    throw new ConfigError(
      `"${name}" is not a model name: give a name as \`cadre models list\` shows it.`,
    );
  const known = (await listModels(env)).find((model) => model.name === name);
  if (!known) throw new ConfigError(`No model named ${name} in ${modelsDir(env)}.`);
  await rm(known.file);
  return known;
}
