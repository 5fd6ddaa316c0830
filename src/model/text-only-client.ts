import {
  MODEL_SPECIFICATION_VERSION,
  type FunctionResponsePart,
  type Message,
  type ModelClient,
  type ModelRequest,
  type Part,
} from './types.js';

export const IMAGE_OMITTED = '[image omitted: model does not accept images]';

/** The answer with a note per image in place of the images (which go nowhere). */
function withNotes(part: FunctionResponsePart): FunctionResponsePart {
  const { images, ...rest } = part;
  if (!images?.length || !('output' in rest.response)) return rest;
  const output = rest.response.output;
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  const notes = images.map(() => IMAGE_OMITTED).join('\n');
  return { ...rest, response: { output: text ? `${text}\n${notes}` : notes } };
}

const hasImages = (part: Part): part is FunctionResponsePart =>
  part.kind === 'function_response' && (part.images?.length ?? 0) > 0;

const stripped = (part: Part): Part => (hasImages(part) ? withNotes(part) : part);

/** The request as a model that takes no images should get it: every tool image a note instead. */
function withoutImages(request: ModelRequest): ModelRequest {
  if (!request.messages.some((m) => m.parts.some(hasImages))) return request;
  const messages: Message[] = request.messages.map((message) => ({
    ...message,
    parts: message.parts.map(stripped),
  }));
  return { ...request, messages };
}

/**
 * A client for a model that takes text only: images a tool answered with
 * (an MCP screenshot) become a note, rather than a request the provider
 * refuses. The stored conversation keeps them; only what is sent changes.
 */
export function textOnlyClient(client: ModelClient): ModelClient {
  return {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider: client.provider,
    generate: (request, signal) => client.generate(withoutImages(request), signal),
    ...(client.contextWindow ? { contextWindow: client.contextWindow.bind(client) } : {}),
  };
}
