/**
 * Reads what went wrong out of an SDK error (`@google/genai` ApiError, the
 * `openai` APIError family, fetch/undici network errors) without trusting
 * its message to be safe: the detail kept is redacted and short.
 */
import { retryAfterFromHeaders, retryDelayFromBody } from './retry-after.js';
import type { HeaderSource } from './retry-after.js';
import { NETWORK_CODES } from '../util/network-codes.js';

export interface ProviderFailure {
  /** HTTP status, when the provider answered. */
  status?: number;
  /** Set when the request never got an HTTP answer (ECONNRESET, ECONNREFUSED, `fetch failed`...). */
  networkCode?: string;
  /** How long the provider asked us to wait before trying again. */
  retryAfterMs?: number;
  /** 408, 429, 5xx and network failures are worth another attempt. */
  retryable: boolean;
  /** The provider's own short message, with anything key-like masked. */
  detail: string;
  /** The provider's error code, when its body has one (OpenAI: `context_length_exceeded`). */
  code?: string;
}

/**
 * Pairs an SDK error with the response headers the SDK dropped (the Gemini
 * SDK's ApiError keeps only status and body), so Retry-After is not lost.
 */
export class FailedResponseError extends Error {
  readonly original: unknown;
  readonly headers: HeaderSource;

  constructor(original: unknown, headers: HeaderSource) {
    super(original instanceof Error ? original.message : String(original), { cause: original });
    this.name = 'FailedResponseError';
    this.original = original;
    this.headers = headers;
  }
}

const CONNECTION_ERROR_NAMES = new Set(['APIConnectionError', 'APIConnectionTimeoutError']);

const MAX_DETAIL = 200;

export function describeFailure(thrown: unknown, now = Date.now()): ProviderFailure {
  const error = thrown instanceof FailedResponseError ? thrown.original : thrown;
  const fields = asRecord(error);
  const status = typeof fields?.['status'] === 'number' ? fields['status'] : undefined;
  const headers =
    thrown instanceof FailedResponseError ? thrown.headers : asHeaders(fields?.['headers']);
  const body = errorBody(error);
  const networkCode = status === undefined ? networkCodeOf(error) : undefined;
  let detail = providerMessage(error, body);
  if (networkCode !== undefined && !detail.includes(networkCode))
    detail = `${detail} (${networkCode})`;
  const code = asRecord(asRecord(body)?.['error'])?.['code'];
  return {
    status,
    networkCode,
    ...(typeof code === 'string' ? { code } : {}),
    retryAfterMs: retryAfterFromHeaders(headers, now) ?? retryDelayFromBody(body),
    retryable: status === undefined ? networkCode !== undefined : isRetryableStatus(status),
    detail: shortDetail(detail),
  };
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status < 600);
}

/** Masks API keys and bearer tokens, keeps the first line, cuts to 200 characters. */
function shortDetail(text: string): string {
  const line = redact(text).split('\n')[0]?.replace(/\s+/g, ' ').trim() ?? '';
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL - 1)}…` : line;
}

export function redact(text: string): string {
  return text
    .replace(/AIza[0-9A-Za-z_-]{20,}/g, '***')
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, '***')
    .replace(/(Bearer\s+)[^\s"']+/gi, '$1***')
    .replace(/([?&](?:key|api_key|apikey)=)[^&\s"']+/gi, '$1***');
}

/** The provider's JSON error body: OpenAI's parsed `error`, or Gemini's body serialised into the message. */
function errorBody(error: unknown): unknown {
  const fields = asRecord(error);
  const openaiError = fields?.['error'];
  if (openaiError !== undefined && typeof openaiError === 'object') return { error: openaiError };
  const message = error instanceof Error ? error.message : '';
  // Gemini: `{"error":{...}}`, or `got status: X. {"error":{...}}` for errors inside a stream.
  const start = message.indexOf('{');
  if (start === -1) return undefined;
  try {
    return JSON.parse(message.slice(start)) as unknown;
  } catch {
    return undefined;
  }
}

function providerMessage(error: unknown, body: unknown): string {
  const message = asRecord(asRecord(body)?.['error'])?.['message'];
  if (typeof message === 'string' && message !== '') return message;
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

function networkCodeOf(error: unknown): string | undefined {
  let connectionLike = false;
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    const fields = asRecord(current);
    const code = fields?.['code'];
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    if (current instanceof Error) {
      if (
        CONNECTION_ERROR_NAMES.has(current.name) ||
        current.message === 'fetch failed' ||
        current.message === 'terminated'
      ) {
        connectionLike = true;
      }
    }
    current = fields?.['cause'];
  }
  return connectionLike ? 'connection error' : undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

function asHeaders(value: unknown): HeaderSource | undefined {
  const get = asRecord(value)?.['get'];
  return typeof get === 'function' ? (value as HeaderSource) : undefined;
}
