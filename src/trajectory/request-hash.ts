import type { Message, ModelRequest, Part } from '../model/types.js';
import { jsonClone, sha256Of } from '../util/json-hash.js';

/**
 * Ids every run mints afresh, found in tool answers (an agent tool returns
 * its child's `agent_id`). They say nothing about what was asked, so
 * matching ignores their values.
 */
const FRESH_IDS = new Set(['agent_id', 'run_id', 'execution_id', 'executionId', 'runId']);

/**
 * The request as plain JSON with a fixed member set: what is recorded.
 * A missing system instruction and an empty one are the same request.
 */
export function normaliseRequest(request: ModelRequest): ModelRequest {
  return jsonClone({
    model: request.model,
    systemInstruction: request.systemInstruction ?? '',
    messages: request.messages,
    tools: request.tools,
    config: request.config,
  });
}

/** What replay compares: the normalised request with fresh ids in tool answers masked. */
export function matchableRequest(request: ModelRequest): ModelRequest {
  const normalised = normaliseRequest(request);
  return { ...normalised, messages: normalised.messages.map(maskMessage) };
}

/** `sha256:` of the canonical JSON of the matchable request. */
export function requestHash(request: ModelRequest): string {
  return sha256Of(matchableRequest(request));
}

function maskMessage(message: Message): Message {
  return { ...message, parts: message.parts.map(maskPart) };
}

function maskPart(part: Part): Part {
  if (part.kind !== 'function_response' || !('output' in part.response)) return part;
  return { ...part, response: { output: maskIds(part.response.output) } };
}

function maskIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskIds);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      FRESH_IDS.has(key) && typeof member === 'string' ? '<id>' : maskIds(member),
    ]),
  );
}
