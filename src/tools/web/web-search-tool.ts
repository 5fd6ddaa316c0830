import { ToolExecutionError } from '../../errors/index.js';
import { throwIfAborted } from '../builtin/abort.js';
import { defineTool, type Tool } from '../types.js';
import type { FetchedPage } from './fetch-page.js';
import { decodeText } from './content-type.js';
import { decodeEntities } from './html-entities.js';
import { FETCH_DEFAULTS } from './web-limits.js';
import type { Resolver } from './guarded-lookup.js';

export interface WebSearchArgs {
  query: string;
  count?: number;
}

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface WebSearchResult {
  query: string;
  results: SearchResult[];
}

export type SearchEnv = Readonly<Record<string, string | undefined>>;

export interface WebSearchToolOptions {
  timeoutMs?: number;
  /** DNS for the provider's host; the system resolver by default. */
  resolve?: Resolver;
}

export const BRAVE_SEARCH_URL = 'https://api.search.brave.com/res/v1/web/search';

/** Said where web_search is asked for but cannot be offered. */
export const webSearchUnavailableNote =
  'web_search needs a search provider: set BRAVE_API_KEY (a Brave Search API key) to enable it.';

const SEARCH_LIMITS = { defaultCount: 10, maxCount: 20, maxBytes: 1024 * 1024 } as const;

const present = (env: SearchEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/**
 * web_search over the Brave Search API, or undefined when no provider is
 * configured (`webSearchUnavailableNote` says how to configure one).
 * `CADRE_SEARCH_URL` replaces the endpoint; the request goes through the same
 * guarded client as web_fetch, so an internal endpoint must be in
 * `CADRE_FETCH_ALLOW`.
 */
export function createWebSearchTool(
  env: SearchEnv = process.env,
  options: WebSearchToolOptions = {},
): Tool | undefined {
  const apiKey = present(env, 'BRAVE_API_KEY');
  if (apiKey === undefined) return undefined;
  const endpoint = present(env, 'CADRE_SEARCH_URL') ?? BRAVE_SEARCH_URL;
  return defineTool<WebSearchArgs>({
    name: 'web_search',
    description:
      'Search the web and return the top results, each with title, url and a short snippet. ' +
      'Use web_fetch on a result url to read the page.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 400, description: 'What to search for.' },
        count: {
          type: 'integer',
          minimum: 1,
          maximum: SEARCH_LIMITS.maxCount,
          description: `How many results to return (default ${SEARCH_LIMITS.defaultCount}).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    sideEffect: false,
    preview: (args) => `Search the web for "${args.query}"`,
    async execute(args, ctx): Promise<WebSearchResult> {
      throwIfAborted(ctx.signal);
      const count = args.count ?? SEARCH_LIMITS.defaultCount;
      const url = searchUrl(endpoint, args.query, count);
      // Loaded on first use, like web_fetch's: address parsing costs start-up time.
      const [{ parseFetchAllow }, { fetchPage }] = await Promise.all([
        import('./address-rules.js'),
        import('./fetch-page.js'),
      ]);
      const page = await fetchPage(url, {
        allow: parseFetchAllow(env.CADRE_FETCH_ALLOW),
        maxBytes: SEARCH_LIMITS.maxBytes,
        timeoutMs: options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs,
        maxRedirects: 2,
        signal: ctx.signal,
        // Only the endpoint's origin gets the key: fetchPage drops it on a redirect elsewhere.
        headers: { accept: 'application/json', 'x-subscription-token': apiKey },
        ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
      });
      return { query: args.query, results: parseResults(page).slice(0, count) };
    },
  });
}

function searchUrl(endpoint: string, query: string, count: number): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ToolExecutionError('CADRE_SEARCH_URL is not a valid URL.');
  }
  url.searchParams.set('q', query);
  url.searchParams.set('count', String(count));
  return url.href;
}

/** The Brave answer `{ web: { results: [{ title, url, description }] } }` as plain results. */
function parseResults(page: FetchedPage): SearchResult[] {
  if (page.status < 200 || page.status > 299) throw providerError(page.status);
  if (page.truncated) throw new ToolExecutionError('The search provider sent an oversized answer.');
  let answer: unknown;
  try {
    answer = JSON.parse(decodeText(page.body, page.charset));
  } catch {
    throw new ToolExecutionError('The search provider sent an answer that is not JSON.');
  }
  const results = field(field(answer, 'web'), 'results');
  if (!Array.isArray(results)) return [];
  return results.flatMap((entry: unknown) => {
    const url = field(entry, 'url');
    if (typeof url !== 'string') return [];
    return [
      {
        title: plain(field(entry, 'title')),
        url,
        snippet: plain(field(entry, 'description')),
      },
    ];
  });
}

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** Snippets carry `<strong>` highlights and entities; the model gets plain text. */
const plain = (value: unknown): string =>
  typeof value === 'string'
    ? decodeEntities(value.replace(/<[^>]*>/g, ''))
        .replace(/\s+/g, ' ')
        .trim()
    : '';

function providerError(status: number): ToolExecutionError {
  if (status === 401 || status === 403)
    return new ToolExecutionError(
      `The search provider refused the key (${status}); check BRAVE_API_KEY.`,
    );
  if (status === 429)
    return new ToolExecutionError('The search provider is rate limiting (429); try again later.');
  return new ToolExecutionError(`The search provider answered ${status}.`);
}
