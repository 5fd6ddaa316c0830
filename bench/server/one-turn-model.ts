import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../../src/model/types.js';

/** The same scripted model for Cadre and the floor: one turn, a short answer, no network. */
export function oneTurnModel(): ModelClient {
  return {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider: 'scripted',
    async *generate(_request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
      signal.throwIfAborted();
      yield { type: 'text', text: 'Hello! How can I help today?' };
      yield {
        type: 'usage',
        usage: { inputTokens: 12, outputTokens: 8, thoughtTokens: 0, totalTokens: 20 },
      };
    },
  };
}
