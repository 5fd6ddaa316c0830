import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError } from '../../errors/index.js';
import { contextFor } from '../builtin/testing/test-support.js';
import type { Tool } from '../types.js';
import {
  BRAVE_SEARCH_URL,
  createWebSearchTool,
  type SearchEnv,
  webSearchUnavailableNote,
  type WebSearchResult,
} from './web-search-tool.js';
import {
  expectToolError,
  never,
  redirect,
  startServer,
  text,
  type TestServer,
} from './testing/test-support.js';

const KEY = 'test-key-123';
let brave: TestServer;
let elsewhere: TestServer;

const ANSWER = {
  query: { original: 'cadre agents' },
  web: {
    results: [
      {
        title: 'Cadre &amp; friends',
        url: 'https://cadre.example/',
        description: 'A runtime for <strong>declarative</strong> LLM agents.',
      },
      { title: 'No url here', description: 'skipped' },
      { title: 'Second', url: 'https://second.example/', description: '' },
      { url: 'https://third.example/' },
    ],
  },
};

beforeAll(async () => {
  elsewhere = await startServer({ '/search': text(JSON.stringify(ANSWER), 'application/json') });
  brave = await startServer({
    '/res/v1/web/search': (req, res) => {
      if (req.headers['x-subscription-token'] !== KEY) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER));
    },
    '/limited': text('{}', 'application/json', 429),
    '/html': text('<html>not json</html>', 'text/html'),
    '/empty': text('{"type":"search"}', 'application/json'),
    '/moved': redirect(() => elsewhere.url('/search')),
    '/never': never,
  });
});
afterAll(async () => {
  await brave?.close();
  await elsewhere?.close();
});

const ctx = contextFor('/nonexistent-workspace', new AbortController().signal);

function toolFor(env: SearchEnv): Tool {
  const tool = createWebSearchTool(env);
  if (!tool) throw new Error('expected web_search to be configured');
  return tool;
}

const searchTool = (path = '/res/v1/web/search', key = KEY): Tool =>
  toolFor({
    BRAVE_API_KEY: key,
    CADRE_SEARCH_URL: brave.url(path),
    CADRE_FETCH_ALLOW: '127.0.0.1',
  });

const search = async (tool: Tool, args: Record<string, unknown>, signal?: AbortSignal) =>
  (await tool.execute(
    args,
    signal ? contextFor('/nonexistent-workspace', signal) : ctx,
  )) as WebSearchResult;

describe('createWebSearchTool', () => {
  it('offers no tool without BRAVE_API_KEY, and the note says how to enable it', () => {
    expect(createWebSearchTool({})).toBeUndefined();
    expect(createWebSearchTool({ BRAVE_API_KEY: '  ' })).toBeUndefined();
    expect(webSearchUnavailableNote).toMatch(
      /web_search needs a search provider: set BRAVE_API_KEY/,
    );
  });

  it('defines a read-only web_search tool against Brave by default', () => {
    const tool = createWebSearchTool({ BRAVE_API_KEY: KEY });
    expect(tool?.name).toBe('web_search');
    expect(tool?.sideEffect).toBe(false);
    expect(tool?.preview?.({ query: 'cadre agents' })).toBe('Search the web for "cadre agents"');
    expect(BRAVE_SEARCH_URL).toBe('https://api.search.brave.com/res/v1/web/search');
  });
});

describe('web_search against a fake Brave endpoint', () => {
  it('sends q, count and the key, and returns plain results', async () => {
    const before = brave.seen.length;
    const result = await search(searchTool(), { query: 'cadre agents', count: 3 });
    expect(result).toEqual({
      query: 'cadre agents',
      results: [
        {
          title: 'Cadre & friends',
          url: 'https://cadre.example/',
          snippet: 'A runtime for declarative LLM agents.',
        },
        { title: 'Second', url: 'https://second.example/', snippet: '' },
        { title: '', url: 'https://third.example/', snippet: '' },
      ],
    });
    const [request] = brave.seen.slice(before);
    expect(request?.path).toBe('/res/v1/web/search?q=cadre+agents&count=3');
    expect(request?.headers['x-subscription-token']).toBe(KEY);
    expect(request?.headers.accept).toBe('application/json');
  });

  it('keeps at most count results and asks for 10 by default', async () => {
    const before = brave.seen.length;
    expect((await search(searchTool(), { query: 'x', count: 1 })).results).toHaveLength(1);
    await search(searchTool(), { query: 'x' });
    expect(brave.seen.at(-1)?.path).toBe('/res/v1/web/search?q=x&count=10');
    expect(brave.seen.length).toBe(before + 2);
  });

  it('returns no results when the answer has no web section', async () => {
    expect(await search(searchTool('/empty'), { query: 'x' })).toEqual({ query: 'x', results: [] });
  });

  it('explains a refused key, rate limiting and an answer that is not JSON', async () => {
    await expectToolError(
      searchTool(undefined, 'wrong').execute({ query: 'x' }, ctx),
      'The search provider refused the key (401); check BRAVE_API_KEY.',
    );
    await expectToolError(
      searchTool('/limited').execute({ query: 'x' }, ctx),
      'The search provider is rate limiting (429); try again later.',
    );
    await expectToolError(
      searchTool('/html').execute({ query: 'x' }, ctx),
      'The search provider sent an answer that is not JSON.',
    );
  });

  it('goes through the guarded client: a loopback endpoint needs CADRE_FETCH_ALLOW', async () => {
    const tool = toolFor({ BRAVE_API_KEY: KEY, CADRE_SEARCH_URL: brave.url('/res/v1/web/search') });
    await expectToolError(
      tool.execute({ query: 'x' }, ctx),
      'Refused: 127.0.0.1 is a loopback address (set CADRE_FETCH_ALLOW to allow it)',
    );
  });

  it('does not send the key to another origin after a redirect', async () => {
    const before = elsewhere.seen.length;
    const result = await search(searchTool('/moved'), { query: 'x', count: 2 });
    expect(result.results).toHaveLength(2);
    expect(elsewhere.seen.slice(before).map((r) => r.headers['x-subscription-token'])).toEqual([
      undefined,
    ]);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    // Cancelled once the server holds the request, not after a guessed delay.
    void brave.reached('/never').then(() => controller.abort());
    await expect(
      search(searchTool('/never'), { query: 'x' }, controller.signal),
    ).rejects.toBeInstanceOf(CancelledError);
  });
});
