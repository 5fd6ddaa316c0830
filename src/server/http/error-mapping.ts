import type { IncomingMessage } from 'node:http';
import { CadreError, type ErrorCode } from '../../errors/cadre-error.js';
import { storeUnavailableIn } from '../../errors/store-error.js';
import { ThreadAgentMismatchError } from '../core/thread-agent.js';
import { HttpProblem, type ErrorBody, type HttpErrorCode } from './http-problem.js';

export interface MappedError {
  status: number;
  code: HttpErrorCode;
  /** Safe to show: never a stack, a payload or an internal detail. */
  message: string;
  /** True for failures on the server's side (5xx but a cancellation): logged with their details. */
  serverFault: boolean;
}

const MAX_MESSAGE = 300;

/**
 * Status per taxonomy code. Choices beyond the obvious ones:
 * - validation_error from the core is 422: the request was well-formed JSON of
 *   the right shape (the HTTP layer answers shape errors with 400 itself) but
 *   its content was refused.
 * - cancelled is 503: a run is cancelled under a listening client only when the
 *   server shuts down, and 503 tells the client to retry elsewhere or later.
 * - tool_execution_error is 502 like model_error: an upstream provider failed.
 * - store_unavailable is 503: the database is down or full, and the same
 *   request may well succeed in a moment.
 */
export function statusForCode(code: ErrorCode): number {
  switch (code) {
    case 'validation_error':
      return 422;
    case 'auth_error':
      return 401;
    case 'policy_error':
      return 403;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'model_error':
    case 'tool_execution_error':
      return 502;
    case 'timeout':
      return 504;
    case 'cancelled':
    case 'store_unavailable':
      return 503;
    case 'config_error':
      return 500;
    default:
      return code satisfies never;
  }
}

/** Fastify's own request errors; their texts are fixed, but we still use our own. */
const FASTIFY_ERRORS: Record<string, { status: number; code: HttpErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'The request body is too large.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Send the request body as application/json.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'validation_error',
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'validation_error',
    message: 'The request body is empty.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'validation_error',
    message: 'The request body does not match its Content-Length.',
  },
};

/** Turns anything thrown into a status and a safe message; unknown errors become a generic 500. */
export function mapError(thrown: unknown): MappedError {
  // The store down or full is an outage, not a bug: said as one even when something wrapped it.
  const error = thrown instanceof CadreError ? thrown : (storeUnavailableIn(thrown) ?? thrown);
  if (error instanceof HttpProblem)
    return { status: error.status, code: error.code, message: error.message, serverFault: false };
  if (error instanceof ThreadAgentMismatchError)
    return {
      status: 409,
      code: 'thread_agent_mismatch',
      message: safeText(error.message),
      serverFault: false,
    };
  if (error instanceof CadreError) {
    const status = statusForCode(error.code);
    // A config problem is the operator's to fix; its text may name files or settings.
    const message =
      error.code === 'config_error'
        ? 'The server is not configured for this request.'
        : error.message;
    return {
      status,
      code: error.code,
      message: safeText(message),
      serverFault: status >= 500 && error.code !== 'cancelled',
    };
  }
  const known = fastifyError(error);
  if (known) return { ...known, serverFault: false };
  return {
    status: 500,
    code: 'internal',
    message: 'Internal error; the details are in the server log.',
    serverFault: true,
  };
}

/**
 * The client's connection broke while its request was being read (it hung
 * up, or was cut off for taking too long): the client's doing, not a server
 * fault, and frequent on a hostile network — so not logged as an error.
 */
export function clientLeft(error: unknown, request: IncomingMessage): MappedError | undefined {
  const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  if (code !== 'ECONNRESET' || !request.readableAborted) return undefined;
  return {
    status: 400,
    code: 'validation_error',
    message: 'The request did not arrive whole.',
    serverFault: false,
  };
}

export function errorBody(mapped: MappedError): ErrorBody {
  return { ok: false, error: { code: mapped.code, message: mapped.message } };
}

function fastifyError(
  error: unknown,
): { status: number; code: HttpErrorCode; message: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  const known = typeof code === 'string' ? FASTIFY_ERRORS[code] : undefined;
  if (known) return known;
  // Any other 4xx Fastify raises while reading the request keeps its status, said generically.
  if (typeof code === 'string' && code.startsWith('FST_') && typeof statusCode === 'number')
    if (statusCode >= 400 && statusCode < 500)
      return { status: statusCode, code: 'validation_error', message: 'Bad request.' };
  return undefined;
}

/** One line, bounded: messages are meant for people and must not carry dumps. */
function safeText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line || 'Error.';
}
