import type { ModelChunk, ModelClient, ModelRequest } from '../model/types.js';

/** Reads a model call to its end, keeping what arrived before a failure (client tests). */
export async function collectChunks(
  client: ModelClient,
  req: ModelRequest,
  signal: AbortSignal = new AbortController().signal,
): Promise<{ chunks: ModelChunk[]; error?: unknown }> {
  const chunks: ModelChunk[] = [];
  try {
    for await (const chunk of client.generate(req, signal)) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}
