import type { IncomingHttpHeaders } from 'node:http';
import { traceCarrierOf } from '../../contracts/trace-carrier.js';
import type { RunRequest } from '../run-service-types.js';

/** A run body as the routes parse it: a prompt, inputs, or both. */
export interface RunBody {
  prompt?: string | undefined;
  threadId?: string | undefined;
  agent?: string | undefined;
  record?: boolean | undefined;
  inputs?: Record<string, unknown> | undefined;
}

/**
 * The core's request for a body. A run given only inputs still needs a thread
 * message (and title): the inputs, one `name: value` line each.
 */
export function runRequest(
  body: RunBody,
  userId: string,
  headers: IncomingHttpHeaders = {},
): RunRequest {
  const { prompt, threadId, agent, record, inputs } = body;
  return {
    ...requestTrace(headers),
    userId,
    prompt: prompt ?? inputsText(inputs ?? {}),
    ...(threadId !== undefined ? { threadId } : {}),
    ...(agent !== undefined ? { agent } : {}),
    ...(record !== undefined ? { record } : {}),
    ...(inputs !== undefined ? { inputs } : {}),
  };
}

export function inputsText(inputs: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(inputs);
  if (entries.length === 0) return '(no inputs)';
  const only = entries.length === 1 ? entries[0] : undefined;
  // A chat agent's single `prompt` input is the message itself.
  if (only?.[0] === 'prompt' && typeof only[1] === 'string') return only[1];
  return entries
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/** The request's W3C trace context, as a RunRequest field: the run continues the caller's trace. */
export function requestTrace(headers: IncomingHttpHeaders): Pick<RunRequest, 'trace'> {
  const trace = traceCarrierOf(headers);
  return trace ? { trace } : {};
}
