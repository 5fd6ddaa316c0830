/** web_fetch's default caps: kept apart from the fetching code so the tool loads it lazily. */
export const FETCH_DEFAULTS = {
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 5,
  userAgent: 'Cadre/0.1 (web_fetch)',
} as const;

/** How much page text one call returns by default, and at most. */
export const PAGE_TEXT_LIMITS = { defaultChars: 50_000, maxChars: 200_000 } as const;
