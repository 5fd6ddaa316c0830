import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from './types.js';

/**
 * A client whose code loads with its first turn: resolving a model (and
 * importing the package) then costs no provider's client modules. The
 * loaded client is kept by this one wrapper, so a failed load is tried again.
 */
export function lazyClient(provider: string, load: () => Promise<ModelClient>): ModelClient {
  let loaded: Promise<ModelClient> | undefined;
  const client = (): Promise<ModelClient> =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
  return {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider,
    async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
      yield* (await client()).generate(request, signal);
    },
    contextWindow: async (signal) => (await client()).contextWindow?.(signal),
  };
}
