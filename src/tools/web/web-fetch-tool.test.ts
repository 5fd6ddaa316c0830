import { Ajv } from 'ajv';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CancelledError, ConfigError } from '../../errors/index.js';
import { contextFor } from '../builtin/testing/test-support.js';
import type { Tool } from '../types.js';
import { createWebFetchTool, webFetchTool, type WebFetchResult } from './web-fetch-tool.js';
import {
  ARTICLE,
  expectToolError,
  never,
  redirect,
  stagedResolver,
  startServer,
  text,
  type TestServer,
} from './testing/test-support.js';

let server: TestServer;
const ctx = contextFor('/nonexistent-workspace', new AbortController().signal);
const env: NodeJS.ProcessEnv = { CADRE_FETCH_ALLOW: '127.0.0.1' };
const tool = createWebFetchTool({ env, timeoutMs: 5_000 });

beforeAll(async () => {
  server = await startServer({
    '/article.html': text(ARTICLE, 'text/html; charset=utf-8'),
    '/notes.txt': text('line one\nline two'),
    '/data.json': text('{"ok":true}', 'application/json'),
    '/gone': text(
      '<html><head><title>Gone</title></head><body><p>No such page</p></body></html>',
      'text/html',
      404,
    ),
    '/old': redirect('/older', 301),
    '/older': redirect('/article.html', 302),
    '/to-private': redirect('http://10.0.0.5/admin'),
    '/logo.png': text(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), 'image/png'),
    '/long.txt': text('y'.repeat(30_000)),
    '/never': never,
    '/echo-trace': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(
        `traceparent=${req.headers.traceparent ?? ''} tracestate=${req.headers.tracestate ?? ''}`,
      );
    },
  });
});
afterAll(() => server?.close());
afterEach(() => {
  env.CADRE_FETCH_ALLOW = '127.0.0.1';
  vi.unstubAllEnvs();
});

const run = async (t: Tool, args: Record<string, unknown>, signal?: AbortSignal) =>
  (await t.execute(
    args,
    signal ? contextFor('/nonexistent-workspace', signal) : ctx,
  )) as WebFetchResult;

describe('web_fetch', () => {
  it('carries the run’s W3C trace context to the page’s server, and none when the run is not traced', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const traced = { ...ctx, traceCarrier: () => ({ traceparent, tracestate: 'cadre=1' }) };
    const result = (await tool.execute(
      { url: server.url('/echo-trace') },
      traced,
    )) as WebFetchResult;
    expect(result.content).toContain(`traceparent=${traceparent} tracestate=cadre=1`);
    const plain = await run(tool, { url: server.url('/echo-trace') });
    expect(plain.content).toContain('traceparent= tracestate=');
  });

  it('returns an HTML page as Markdown with its title, and echoes the prompt as question', async () => {
    const result = await run(tool, {
      url: server.url('/article.html'),
      prompt: 'How do I install it?',
    });
    expect(result).toMatchObject({
      url: server.url('/article.html'),
      final_url: server.url('/article.html'),
      status: 200,
      content_type: 'text/html; charset=utf-8',
      title: 'Intro & Setup — Docs',
      truncated: false,
      question: 'How do I install it?',
    });
    expect(result.content).toMatch(/^# Getting started\n/);
    expect(result.content).toContain('```sh\nnpm install cadre\n```');
    expect(result.content).not.toContain('Menu A');
  });

  it('returns text and JSON as they are, without a title or question', async () => {
    expect(await run(tool, { url: server.url('/notes.txt') })).toEqual({
      url: server.url('/notes.txt'),
      final_url: server.url('/notes.txt'),
      status: 200,
      content_type: 'text/plain; charset=utf-8',
      content: 'line one\nline two',
      truncated: false,
    });
    expect((await run(tool, { url: server.url('/data.json') })).content).toBe('{"ok":true}');
  });

  it('returns a 404 as a result with its status and body', async () => {
    expect(await run(tool, { url: server.url('/gone') })).toMatchObject({
      status: 404,
      title: 'Gone',
      content: 'No such page',
    });
  });

  it('follows redirects and reports the final URL', async () => {
    const result = await run(tool, { url: server.url('/old') });
    expect(result.final_url).toBe(server.url('/article.html'));
    expect(result.title).toBe('Intro & Setup — Docs');
  });

  it('refuses a redirect to a private address', async () => {
    await expectToolError(
      tool.execute({ url: server.url('/to-private') }, ctx),
      'Refused redirect 1 to http://10.0.0.5/admin: 10.0.0.5 is a private address ' +
        '(set CADRE_FETCH_ALLOW to allow it)',
    );
  });

  it('refuses binary types, naming the type', async () => {
    await expectToolError(
      tool.execute({ url: server.url('/logo.png') }, ctx),
      `${server.url('/logo.png')} is image/png, which web_fetch does not read; it returns text ` +
        '(HTML, plain text, JSON, XML, Markdown) only.',
    );
  });

  it('cuts the text at max_chars and the download at maxBytes', async () => {
    const short = await run(tool, { url: server.url('/long.txt'), max_chars: 1_000 });
    expect(short.truncated).toBe(true);
    expect(short.content).toMatch(/^y{1000}\n\n\[truncated: showing 1,000 of 30,000 characters;/);

    const small = createWebFetchTool({ env, maxBytes: 2_000 });
    const cut = await run(small, { url: server.url('/long.txt') });
    expect(cut.truncated).toBe(true);
    expect(cut.content).toBe(
      `${'y'.repeat(2_000)}\n\n[truncated: the page is larger than the download limit; this is its beginning]`,
    );
  });

  it('reads CADRE_FETCH_ALLOW at each call', async () => {
    env.CADRE_FETCH_ALLOW = '';
    await expectToolError(
      tool.execute({ url: server.url('/notes.txt') }, ctx),
      'Refused: 127.0.0.1 is a loopback address (set CADRE_FETCH_ALLOW to allow it)',
    );
    env.CADRE_FETCH_ALLOW = '127.0.0.0/8';
    expect((await run(tool, { url: server.url('/notes.txt') })).status).toBe(200);
  });

  it('webFetchTool reads process.env when called, not when imported', async () => {
    vi.stubEnv('CADRE_FETCH_ALLOW', '');
    await expectToolError(
      webFetchTool.execute({ url: server.url('/notes.txt') }, ctx),
      /^Refused: /,
    );
    vi.stubEnv('CADRE_FETCH_ALLOW', '127.0.0.1');
    expect((await run(webFetchTool, { url: server.url('/notes.txt') })).content).toBe(
      'line one\nline two',
    );
  });

  it('reports an unreadable CADRE_FETCH_ALLOW', async () => {
    env.CADRE_FETCH_ALLOW = '10.0.0.0/99';
    await expect(tool.execute({ url: server.url('/notes.txt') }, ctx)).rejects.toThrow(ConfigError);
  });

  it('resolves names through the resolver it is given', async () => {
    const resolve = stagedResolver({ 'docs.internal': ['127.0.0.1'] });
    const named = createWebFetchTool({ env: { CADRE_FETCH_ALLOW: 'docs.internal' }, resolve });
    const result = await run(named, { url: `http://docs.internal:${server.port}/notes.txt` });
    expect(result.content).toBe('line one\nline two');
    expect(resolve.calls).toEqual(['docs.internal']);
  });

  it('times out, and stops when cancelled', async () => {
    const quick = createWebFetchTool({ env, timeoutMs: 200 });
    await expectToolError(
      quick.execute({ url: server.url('/never') }, ctx),
      /^Timed out after 0\.2 s/,
    );

    const controller = new AbortController();
    // Cancelled once the server holds the request, not after a guessed delay.
    void server.reached('/never').then(() => controller.abort());
    await expect(
      run(tool, { url: server.url('/never') }, controller.signal),
    ).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('web_fetch definition', () => {
  it('is read-only, names itself and previews the URL', () => {
    expect(tool.name).toBe('web_fetch');
    expect(tool.sideEffect).toBe(false);
    expect(tool.preview?.({ url: 'https://example.com/a' })).toBe('Fetch https://example.com/a');
  });

  it('has a strict schema that takes url, max_chars and prompt only', () => {
    const validate = new Ajv({ strict: true }).compile(tool.inputSchema);
    expect(validate({ url: 'https://example.com', max_chars: 5_000, prompt: 'summarise' })).toBe(
      true,
    );
    expect(validate({ url: '' })).toBe(false);
    expect(validate({ url: 'https://example.com', max_chars: 1.5 })).toBe(false);
    expect(validate({ url: 'https://example.com', extra: 1 })).toBe(false);
    expect(validate({})).toBe(false);
  });
});

describe('web_fetch outsidePatterns', () => {
  const outside = (url: string, patterns: string[]) => tool.outsidePatterns?.({ url }, patterns);

  it.each([
    ['https://example.com/page', ['domain:example.com']],
    ['https://docs.example.com/page', ['domain:example.com']],
    ['https://a.b.example.com/', ['domain:example.com']],
    ['https://EXAMPLE.com./x', ['domain:Example.COM']],
    ['https://api.github.com/x', ['domain:example.com', 'domain:github.com']],
    ['https://docs.example.com/', ['domain:*.example.com']],
    ['https://docs.example.com/', ['example.com']],
    ['https://anything.test/', ['domain:*']],
    ['https://anything.test/', ['*']],
    ['https://anything.test/', ['']],
    ['https://anything.test/', []],
  ])('%s is inside %j', (url, patterns) => {
    expect(outside(url, patterns)).toBeUndefined();
  });

  it.each([
    ['https://evil-example.com/', ['domain:example.com']],
    ['https://example.com.evil.test/', ['domain:example.com']],
    ['https://example.org/', ['domain:example.com']],
    ['https://com/', ['domain:example.com']],
  ])('%s is outside %j', (url, patterns) => {
    expect(outside(url, patterns)).toMatch(
      /^web_fetch is limited to example\.com \(and their subdomains\); .+ is outside\.$/,
    );
  });

  it('treats a URL it cannot read as outside', () => {
    expect(outside('not a url', ['domain:example.com'])).toBe(
      '"not a url" is not a valid URL, so it cannot be checked against the allowed domains.',
    );
  });
});
