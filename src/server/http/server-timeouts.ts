import type { FastifyHttpOptions } from 'fastify';
import type { Server } from 'node:http';

/** How long a client may take to send a request, and how long a kept-alive socket may live. */
export interface ServerTimeouts {
  /** Receiving the whole request, headers and body; 0 turns it off. Default 30 s. */
  requestMs?: number;
  /** Receiving the headers; at most `requestMs`. Default 30 s. */
  headersMs?: number;
  /** An idle kept-alive socket is closed after this. Default 10 s. */
  keepAliveMs?: number;
  /** Requests served on one socket before it is closed; 0 for no limit. Default 1000. */
  maxRequestsPerSocket?: number;
}

export const DEFAULT_TIMEOUTS = {
  requestMs: 30_000,
  headersMs: 30_000,
  keepAliveMs: 10_000,
  maxRequestsPerSocket: 1_000,
} as const satisfies Required<ServerTimeouts>;

type TimeoutOptions = Pick<
  FastifyHttpOptions<Server>,
  'requestTimeout' | 'keepAliveTimeout' | 'maxRequestsPerSocket' | 'http'
>;

/**
 * Fastify's options for `timeouts`. Node's requestTimeout and headersTimeout
 * cover receiving the request only: a response may stream for as long as it
 * needs. Fastify leaves the request timeout off and does not set
 * headersTimeout, so both are set here. There is deliberately no idle-socket
 * timeout (Fastify's connectionTimeout): it would also cut an NDJSON stream
 * that is quiet while a model thinks.
 */
export function timeoutOptions(timeouts: ServerTimeouts = {}): TimeoutOptions {
  const requestMs = nonNegative(timeouts.requestMs, DEFAULT_TIMEOUTS.requestMs);
  let headersMs = nonNegative(timeouts.headersMs, DEFAULT_TIMEOUTS.headersMs);
  // Node refuses headersTimeout > requestTimeout; the headers are part of the request anyway.
  if (requestMs > 0 && (headersMs === 0 || headersMs > requestMs)) headersMs = requestMs;
  const shortest = Math.min(...[requestMs, headersMs].filter((ms) => ms > 0));
  return {
    requestTimeout: requestMs,
    keepAliveTimeout: positive(timeouts.keepAliveMs, DEFAULT_TIMEOUTS.keepAliveMs),
    maxRequestsPerSocket: nonNegative(
      timeouts.maxRequestsPerSocket,
      DEFAULT_TIMEOUTS.maxRequestsPerSocket,
    ),
    http: {
      requestTimeout: requestMs,
      headersTimeout: headersMs,
      // Node checks for expired requests only this often (30 s by default),
      // which would let a 30 s timeout run to a minute.
      ...(Number.isFinite(shortest) ? { connectionsCheckingInterval: checkEvery(shortest) } : {}),
    },
  };
}

function checkEvery(timeoutMs: number): number {
  return Math.min(5_000, Math.max(50, Math.floor(timeoutMs / 5)));
}

function nonNegative(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`Expected a whole number ≥ 0, not ${value}.`);
  return value;
}

/** Fastify reads a keep-alive timeout of 0 as "its default, 72 s": refuse it rather than surprise. */
function positive(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new RangeError(`Expected a whole number > 0, not ${value}.`);
  return value;
}
