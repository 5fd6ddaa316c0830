import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { clientLeft, mapError } from '../error-mapping.js';
import type { HttpErrorCode } from '../http-problem.js';

/** OpenAI's error categories, as its SDKs and clients expect them in `error.type`. */
export type OpenAiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'rate_limit_error'
  | 'server_error';

/**
 * Cadre's stable codes, plus OpenAI's own for a model (agent) that does not
 * exist, and `run_failed` for a run that failed for a reason of its own (its
 * turn or cost limit, a tool, the server).
 */
export type OpenAiErrorCode = HttpErrorCode | 'model_not_found' | 'run_failed';

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
export interface OpenAiErrorBody {
  error: { message: string; type: OpenAiErrorType; param: string | null; code: OpenAiErrorCode };
}

export function openAiErrorType(status: number): OpenAiErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

export function openAiErrorBody(
  error: { status: number; code: OpenAiErrorCode; message: string },
  param: string | null = null,
): OpenAiErrorBody {
  return {
    error: { message: error.message, type: openAiErrorType(error.status), param, code: error.code },
  };
}

/**
 * The `/v1` routes' error handler: the same mapping, status codes and
 * logging as the rest of the API (auth, rate and size limits included),
 * answered in OpenAI's shape so its SDKs raise their typed errors.
 */
export function openAiErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const mapped = clientLeft(error, request.raw) ?? mapError(error);
  if (mapped.serverFault) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: mapped.code, status: mapped.status }, 'request refused');
  if (mapped.code === 'auth_error') void reply.header('www-authenticate', 'Bearer');
  return reply.status(mapped.status).send(openAiErrorBody(mapped));
}
