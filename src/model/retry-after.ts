/**
 * How long a provider asked us to wait, from the `Retry-After` header
 * (seconds or an HTTP date), OpenAI's `retry-after-ms`, or Gemini's
 * `google.rpc.RetryInfo` detail (`"retryDelay": "13s"`) in the error body.
 */

export interface HeaderSource {
  get(name: string): string | null;
}

export function retryAfterFromHeaders(
  headers: HeaderSource | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  return parseRetryAfter(headers.get('retry-after'), now);
}

/** `Retry-After: 1` → 1000; `Retry-After: <HTTP date>` → ms until then (never negative). */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Gemini puts the wait in the body: `error.details[].retryDelay` such as `"13s"` or `"1.5s"`. */
export function retryDelayFromBody(body: unknown): number | undefined {
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    const delay = (detail as { retryDelay?: unknown } | null)?.retryDelay;
    const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay.trim()) : null;
    if (match) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}
