/**
 * Reshapes `@anthropic-ai/sdk` API errors for describeFailure: Anthropic's
 * body is `{type: 'error', error: {type, message}}`, and an `event: error`
 * inside a 200 stream (e.g. overloaded_error) carries no HTTP status at all.
 */
import type { HeaderSource } from './retry-after.js';

/** The HTTP status each error type has when it comes as a response. */
const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** What describeFailure reads: `status`, `headers` (Retry-After) and `error.message`. */
class AnthropicFailure extends Error {
  readonly status: number | undefined;
  readonly headers: HeaderSource | undefined;
  readonly error: { type: string; message: string };

  constructor(
    original: unknown,
    status: number | undefined,
    headers: HeaderSource | undefined,
    error: { type: string; message: string },
  ) {
    super(error.message, { cause: original });
    this.name = 'AnthropicFailure';
    this.status = status;
    this.headers = headers;
    this.error = error;
  }
}

/** An SDK error with an Anthropic error body, reshaped; anything else as it was. */
export function anthropicFailure(thrown: unknown): unknown {
  if (typeof thrown !== 'object' || thrown === null) return thrown;
  const fields = thrown as { status?: unknown; headers?: unknown; error?: unknown };
  const inner = (fields.error as { error?: unknown } | undefined)?.error;
  if (typeof inner !== 'object' || inner === null) return thrown;
  const { type, message } = inner as { type?: unknown; message?: unknown };
  const kind = typeof type === 'string' ? type : 'error';
  const status =
    typeof fields.status === 'number'
      ? fields.status
      : Object.hasOwn(STATUS_OF_TYPE, kind)
        ? STATUS_OF_TYPE[kind]
        : undefined;
  const headers = hasGet(fields.headers) ? fields.headers : undefined;
  const text = typeof message === 'string' && message !== '' ? message : kind;
  return new AnthropicFailure(thrown, status, headers, { type: kind, message: text });
}

function hasGet(value: unknown): value is HeaderSource {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { get?: unknown }).get === 'function'
  );
}
