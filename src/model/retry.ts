/**
 * Retries a streaming model call on 429 / 5xx / network failures, but only
 * while the failed attempt has yielded nothing: streamed output is never
 * duplicated. Everything else becomes a ModelError with a safe message.
 */
import { CadreError, isAbortError, ModelError } from '../errors/index.js';
import type { ModelChunk } from './types.js';
import { realClock, type Clock } from '../util/clock.js';
import { describeFailure } from './provider-failure.js';
import type { ProviderFailure } from './provider-failure.js';
import { contextOverflow } from './context-overflow.js';

/** Tunables a client takes in its constructor. */
export interface RetryPolicy {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts?: number;
  /** First backoff step; doubles each attempt. Default 500 ms. */
  baseDelayMs?: number;
  /** Cap on any single wait, Retry-After included. Default 30 s. */
  maxDelayMs?: number;
  /** Waits between attempts (a test's clock records the waits instead); must reject when the signal aborts. */
  clock?: Pick<Clock, 'sleep'>;
  /** Jitter source in [0, 1); injected in tests. */
  random?: () => number;
}

export interface RetryOptions extends RetryPolicy {
  signal: AbortSignal;
  /** Provider name for messages, e.g. `Gemini`. */
  label?: string;
}

export async function* withRetries(
  attemptFn: (attempt: number) => AsyncIterable<ModelChunk>,
  options: RetryOptions,
): AsyncGenerator<ModelChunk, void, undefined> {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 4));
  const clock = options.clock ?? realClock;
  const label = options.label ?? 'Model';
  for (let attempt = 1; ; attempt++) {
    options.signal.throwIfAborted();
    let yielded = false;
    try {
      for await (const chunk of attemptFn(attempt)) {
        yielded = true;
        yield chunk;
      }
      return;
    } catch (error) {
      if (isAbortError(error)) throw error;
      // An SDK may surface an abort as some other error; the abort wins.
      if (options.signal.aborted) throw options.signal.reason;
      if (error instanceof CadreError) throw error;
      const failure = describeFailure(error);
      if (!failure.retryable || yielded || attempt >= maxAttempts) {
        throw toModelError(label, failure, attempt, error);
      }
      const delayMs = retryDelayMs(attempt, failure.retryAfterMs, options);
      yield { type: 'retry', attempt, delayMs, reason: reasonOf(failure) };
      await clock.sleep(delayMs, options.signal);
    }
  }
}

/**
 * The provider's Retry-After when given (capped at maxDelayMs), otherwise
 * exponential backoff with "equal jitter": half fixed, half random.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy = {},
): number {
  const maxDelayMs = policy.maxDelayMs ?? 30_000;
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, maxDelayMs);
  const exponential = Math.min(maxDelayMs, (policy.baseDelayMs ?? 500) * 2 ** (attempt - 1));
  const random = policy.random ?? Math.random;
  return Math.round(exponential / 2 + (exponential / 2) * random());
}

function reasonOf(failure: ProviderFailure): string {
  const what = failure.status !== undefined ? `HTTP ${failure.status}` : 'network error';
  return `${what}: ${failure.detail}`;
}

function toModelError(
  label: string,
  failure: ProviderFailure,
  attempts: number,
  cause: unknown,
): ModelError {
  const what =
    failure.status !== undefined
      ? `HTTP ${failure.status}`
      : failure.networkCode !== undefined
        ? 'network error'
        : undefined;
  const gaveUp = attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
  const message = `${label} request failed${what ? ` (${what})` : ''}: ${failure.detail}${gaveUp}`;
  const overflow = contextOverflow(failure);
  return new ModelError(message, {
    status: failure.status,
    retryable: failure.retryable,
    ...(overflow ? { contextOverflow: overflow } : {}),
    cause,
    details: { status: failure.status, networkCode: failure.networkCode, attempts },
  });
}
