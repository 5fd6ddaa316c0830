import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import { parseInput } from '../request-schemas.js';

/**
 * Continues a Cadre thread (the `cadre.threadId` of an earlier answer): the
 * thread's stored history is then the context, not the request's messages.
 * A header, so OpenAI clients can set it without touching the body.
 */
export const THREAD_HEADER = 'x-cadre-thread-id';

const threadId = z
  .string()
  .max(200)
  .refine((s) => s.trim().length > 0, 'must not be empty');

export function threadFromHeader(request: FastifyRequest): string | undefined {
  const value = request.headers[THREAD_HEADER];
  if (value === undefined) return undefined;
  return parseInput(threadId, value, `headers.${THREAD_HEADER}`);
}
