import { describe, expect, it } from 'vitest';
import { CancelledError, ConfigError, isAbortError, ModelError } from '../errors/index.js';
import { realClock } from '../util/clock.js';
import { describeFailure, FailedResponseError, redact } from './provider-failure.js';
import { parseRetryAfter, retryDelayFromBody } from './retry-after.js';
import { retryDelayMs, withRetries } from './retry.js';
import type { RetryOptions } from './retry.js';
import type { ModelChunk } from './types.js';
import { ManualClock } from '../util/testing/manual-clock.js';

/** What an SDK throws for an HTTP failure: a status, maybe headers. */
function httpError(
  status: number,
  message = `HTTP ${status}`,
  headers?: Record<string, string>,
): Error {
  return Object.assign(new Error(message), {
    status,
    headers: headers ? new Headers(headers) : undefined,
  });
}

function networkError(code: string): Error {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error(`connect ${code}`), { code }),
  });
}

/** An attempt function that fails with `failures[n]` on attempt n+1 (after yielding `before`), then succeeds. */
function scripted(failures: Array<{ error: unknown; before?: ModelChunk[] }>) {
  const attempts: number[] = [];
  const fn = async function* (attempt: number): AsyncGenerator<ModelChunk> {
    attempts.push(attempt);
    const failure = failures[attempt - 1];
    if (failure) {
      yield* failure.before ?? [];
      throw failure.error;
    }
    yield { type: 'text', text: 'ok' };
  };
  return { fn, attempts };
}

async function collect(
  iterable: AsyncIterable<ModelChunk>,
): Promise<{ chunks: ModelChunk[]; error?: unknown }> {
  const chunks: ModelChunk[] = [];
  try {
    for await (const chunk of iterable) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

function options(overrides: Partial<RetryOptions> = {}): RetryOptions & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    signal: new AbortController().signal,
    label: 'Test',
    random: () => 0,
    clock: { sleep: async (ms) => void sleeps.push(ms) },
    sleeps,
    ...overrides,
  };
}

describe('withRetries', () => {
  describe('what is retried', () => {
    it.each([429, 500, 502, 503, 504, 408])(
      'retries HTTP %i, then yields the successful attempt',
      async (status) => {
        const { fn, attempts } = scripted([{ error: httpError(status) }]);
        const { chunks, error } = await collect(withRetries(fn, options()));
        expect(error).toBeUndefined();
        expect(attempts).toEqual([1, 2]);
        expect(chunks.map((c) => c.type)).toEqual(['retry', 'text']);
      },
    );

    it.each(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ENOTFOUND', 'ENETDOWN'])(
      'retries the network error %s',
      async (code) => {
        const { fn, attempts } = scripted([{ error: networkError(code) }]);
        const { chunks } = await collect(withRetries(fn, options()));
        expect(attempts).toEqual([1, 2]);
        expect(chunks[0]).toMatchObject({ type: 'retry', reason: expect.stringContaining(code) });
      },
    );

    it.each([400, 401, 403, 404, 422])('does not retry HTTP %i', async (status) => {
      const { fn, attempts } = scripted([{ error: httpError(status) }]);
      const { error } = await collect(withRetries(fn, options()));
      expect(attempts).toEqual([1]);
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).status).toBe(status);
    });

    it('never retries once the failed attempt has yielded output (no duplicated stream)', async () => {
      const { fn, attempts } = scripted([
        { error: httpError(503), before: [{ type: 'text', text: 'partial' }] },
      ]);
      const { chunks, error } = await collect(withRetries(fn, options()));
      expect(attempts).toEqual([1]);
      expect(chunks).toEqual([{ type: 'text', text: 'partial' }]);
      expect((error as ModelError).message).toBe('Test request failed (HTTP 503): HTTP 503');
    });

    it('stops after maxAttempts and says how many attempts were made', async () => {
      const { fn, attempts } = scripted([
        { error: httpError(503) },
        { error: httpError(503) },
        { error: httpError(503) },
      ]);
      const { chunks, error } = await collect(withRetries(fn, options({ maxAttempts: 3 })));
      expect(attempts).toEqual([1, 2, 3]);
      expect(chunks.map((c) => c.type)).toEqual(['retry', 'retry']);
      expect((error as ModelError).message).toMatch(/gave up after 3 attempts/);
    });

    it('makes 4 attempts by default', async () => {
      const failures = Array.from({ length: 5 }, () => ({ error: httpError(500) }));
      const { fn, attempts } = scripted(failures);
      await collect(withRetries(fn, options()));
      expect(attempts).toEqual([1, 2, 3, 4]);
    });

    it('passes Cadre errors through untouched', async () => {
      const thrown = new ConfigError('bad config');
      const { fn } = scripted([{ error: thrown }]);
      const { error } = await collect(withRetries(fn, options()));
      expect(error).toBe(thrown);
    });

    it('wraps anything else in a ModelError without retrying', async () => {
      const { fn, attempts } = scripted([{ error: new SyntaxError('Unexpected token < in JSON') }]);
      const { error } = await collect(withRetries(fn, options()));
      expect(attempts).toEqual([1]);
      expect((error as ModelError).message).toBe('Test request failed: Unexpected token < in JSON');
    });
  });

  describe('delays', () => {
    it('honours Retry-After in seconds', async () => {
      const opts = options();
      const { fn } = scripted([{ error: httpError(429, 'slow down', { 'retry-after': '3' }) }]);
      const { chunks } = await collect(withRetries(fn, opts));
      expect(opts.sleeps).toEqual([3000]);
      expect(chunks[0]).toEqual({
        type: 'retry',
        attempt: 1,
        delayMs: 3000,
        reason: 'HTTP 429: slow down',
      });
    });

    it('honours Retry-After as an HTTP date', () => {
      const now = Date.parse('2026-01-01T00:00:00Z');
      expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
      expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
      expect(parseRetryAfter('soon', now)).toBeUndefined();
    });

    it('honours retry-after-ms and Gemini RetryInfo in the error body', () => {
      expect(describeFailure(httpError(429, 'x', { 'retry-after-ms': '250' })).retryAfterMs).toBe(
        250,
      );
      const gemini = httpError(
        429,
        JSON.stringify({
          error: { code: 429, message: 'quota', details: [{ retryDelay: '1.5s' }] },
        }),
      );
      expect(describeFailure(gemini)).toMatchObject({ retryAfterMs: 1500, detail: 'quota' });
      expect(retryDelayFromBody({ error: { details: [{ retryDelay: 'later' }] } })).toBeUndefined();
    });

    it('reads Retry-After from headers an SDK dropped (FailedResponseError)', () => {
      const failure = describeFailure(
        new FailedResponseError(httpError(429), new Headers({ 'retry-after': '2' })),
      );
      expect(failure).toMatchObject({ status: 429, retryAfterMs: 2000, retryable: true });
    });

    it('caps Retry-After at maxDelayMs', () => {
      expect(retryDelayMs(1, 120_000, { maxDelayMs: 30_000 })).toBe(30_000);
    });

    it('backs off exponentially with jitter between half and all of the step', () => {
      expect([1, 2, 3, 4].map((n) => retryDelayMs(n, undefined, { random: () => 0 }))).toEqual([
        250, 500, 1000, 2000,
      ]);
      expect(
        [1, 2, 3, 4].map((n) => retryDelayMs(n, undefined, { random: () => 0.999_999 })),
      ).toEqual([500, 1000, 2000, 4000]);
      expect(retryDelayMs(10, undefined, { random: () => 0.999_999, maxDelayMs: 5000 })).toBe(5000);
    });
  });

  describe('abort', () => {
    it('rethrows an abort error from the attempt as it is, without retrying', async () => {
      const abort = new DOMException('This operation was aborted', 'AbortError');
      const { fn, attempts } = scripted([{ error: abort }]);
      const { error } = await collect(withRetries(fn, options()));
      expect(error).toBe(abort);
      expect(attempts).toEqual([1]);
    });

    it('throws the signal reason when the signal aborted but the SDK threw something else', async () => {
      const controller = new AbortController();
      const reason = new CancelledError();
      const fn = async function* (): AsyncGenerator<ModelChunk> {
        controller.abort(reason);
        throw networkError('ECONNRESET');
      };
      const { error } = await collect(withRetries(fn, options({ signal: controller.signal })));
      expect(error).toBe(reason);
    });

    it('interrupts the wait before a retry when the signal aborts', async () => {
      const controller = new AbortController();
      const { fn, attempts } = scripted([{ error: httpError(429, 'x', { 'retry-after': '60' }) }]);
      // The 60 s wait is on a clock that never moves: only the abort can end it.
      const clock = new ManualClock();
      const iterable = withRetries(fn, {
        signal: controller.signal,
        label: 'Test',
        clock,
      });
      const error = await (async () => {
        for await (const chunk of iterable)
          if (chunk.type === 'retry') {
            // Aborts once the wait has begun (the retry is announced before it).
            void clock.waiting().then(() => controller.abort());
          }
      })().catch((e: unknown) => e);
      expect(isAbortError(error)).toBe(true);
      expect(attempts).toEqual([1]);
      expect(clock.pending).toBe(0);
    });

    it('the real clock between attempts rejects with the signal reason', async () => {
      const controller = new AbortController();
      const waiting = realClock.sleep(60_000, controller.signal);
      controller.abort(new CancelledError('stop'));
      await expect(waiting).rejects.toBeInstanceOf(CancelledError);
      await expect(realClock.sleep(1, new AbortController().signal)).resolves.toBeUndefined();
    });
  });

  describe('safe messages', () => {
    it('masks API keys and bearer tokens and keeps messages short', async () => {
      const secret = 'AIzaSyA-abcdefghijklmnopqrstuvwxyz012345';
      const long = `Bad key ${secret} with Bearer sk-live-abcdefghijkl and ${'x'.repeat(500)}`;
      const { fn } = scripted([{ error: httpError(400, long) }]);
      const { error } = await collect(withRetries(fn, options()));
      const message = (error as ModelError).message;
      expect(message).not.toContain(secret);
      expect(message).not.toContain('sk-live');
      expect(message.length).toBeLessThan(260);
    });

    it('redacts key query parameters', () => {
      expect(redact('GET /v1/models?key=abc123&x=1')).toBe('GET /v1/models?key=***&x=1');
    });
  });
});
