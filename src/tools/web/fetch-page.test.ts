import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError, ToolExecutionError } from '../../errors/index.js';
import { EMPTY_ALLOW, parseFetchAllow } from './address-rules.js';
import { fetchPage, type FetchPageOptions } from './fetch-page.js';
import {
  LOOPBACK_ALLOW,
  never,
  redirect,
  type Route,
  stagedResolver,
  startServer,
  text,
  type TestServer,
  expectToolError,
} from './testing/test-support.js';

const TEN_MB_OF_ZEROS = Buffer.alloc(10 * 1024 * 1024);

let server: TestServer;
let other: TestServer;

beforeAll(async () => {
  other = await startServer({
    '/headers': (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.headers));
    },
  });
  server = await startServer({
    '/plain.txt': text('hello, plain world'),
    '/latin1.txt': text(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=ISO-8859-1'),
    '/meta-charset.html': text(
      Buffer.concat([
        Buffer.from('<html><head><meta charset="windows-1252"><title>x</title></head><body>'),
        Buffer.from([0x93, 0x71, 0x94]),
        Buffer.from('</body></html>'),
      ]),
      'text/html',
    ),
    '/missing': text('<h1>Not here</h1>', 'text/html', 404),
    '/r3': redirect('/r2', 301),
    '/r2': redirect('/r1', 307),
    '/r1': redirect((s) => s.url('/plain.txt'), 308),
    '/loop': redirect('/loop'),
    '/to-ftp': redirect('ftp://127.0.0.1/file'),
    '/to-creds': redirect((s) => `http://user:pw@127.0.0.1:${s.port}/plain.txt`),
    '/to-other-ip': redirect((s) => `http://127.0.0.2:${s.port}/plain.txt`),
    '/to-ip': redirect((s) => s.url('/plain.txt')),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/same-host-again': redirect('/plain.txt'),
    '/to-other-origin': redirect(() => other.url('/headers')),
    '/headers': (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.headers));
    },
    '/huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      // Writes until the client hangs up (bounded to 64 MB should it never).
      const pump = (): void => {
        while (sent < 64 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    },
    '/gzip-bomb': encoded('gzip', zlib.gzipSync(TEN_MB_OF_ZEROS)),
    '/br-bomb': encoded('br', zlib.brotliCompressSync(TEN_MB_OF_ZEROS)),
    '/cut-short': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      // The connection drops once the part written has gone out, not after a guessed delay.
      res.write('only part of it', () => res.destroy());
    },
    '/gzip': encoded('gzip', zlib.gzipSync(Buffer.from('squeezed by gzip'))),
    '/br': encoded('br', zlib.brotliCompressSync(Buffer.from('squeezed by brotli'))),
    '/deflate': encoded('deflate', zlib.deflateSync(Buffer.from('squeezed by zlib deflate'))),
    '/raw-deflate': encoded('deflate', zlib.deflateRawSync(Buffer.from('squeezed by raw deflate'))),
    '/corrupt-gzip': encoded('gzip', Buffer.from('this is not gzip at all')),
    '/zstd': encoded('zstd', Buffer.from('whatever')),
    '/stacked': encoded('gzip, gzip, gzip, gzip', Buffer.from('whatever')),
    '/image.png': text(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'image/png'),
    '/never': never,
    '/stall-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('the beginning, and then nothing');
    },
  });
});

afterAll(async () => {
  await server?.close();
  await other?.close();
});

function encoded(encoding: string, body: Buffer): Route {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding });
    res.end(body);
  };
}

function options(overrides: Partial<FetchPageOptions> = {}): FetchPageOptions {
  return {
    allow: LOOPBACK_ALLOW,
    maxBytes: 1024 * 1024,
    timeoutMs: 5_000,
    maxRedirects: 5,
    signal: new AbortController().signal,
    ...overrides,
  };
}

const bodyText = (body: Buffer): string => body.toString('utf8');

describe('fetchPage: plain fetches', () => {
  it('fetches a text page with its type and status', async () => {
    const page = await fetchPage(server.url('/plain.txt'), options());
    expect(page).toMatchObject({
      url: server.url('/plain.txt'),
      finalUrl: server.url('/plain.txt'),
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      mimeType: 'text/plain',
      charset: 'utf-8',
      truncated: false,
      bodyRead: true,
    });
    expect(bodyText(page.body)).toBe('hello, plain world');
  });

  it('sends a user agent and asks for compressed bodies', async () => {
    const page = await fetchPage(server.url('/headers'), options({ userAgent: 'TestAgent/1' }));
    const headers = JSON.parse(bodyText(page.body)) as Record<string, string>;
    expect(headers['user-agent']).toBe('TestAgent/1');
    expect(headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('returns a 404 as a page with its status', async () => {
    const page = await fetchPage(server.url('/missing'), options());
    expect(page.status).toBe(404);
    expect(bodyText(page.body)).toBe('<h1>Not here</h1>');
  });

  it('reports the charset from the header, or from a meta tag in HTML', async () => {
    expect((await fetchPage(server.url('/latin1.txt'), options())).charset).toBe('iso-8859-1');
    expect((await fetchPage(server.url('/meta-charset.html'), options())).charset).toBe(
      'windows-1252',
    );
  });

  it('leaves a body unread when wantsBody declines its type', async () => {
    const page = await fetchPage(
      server.url('/image.png'),
      options({ wantsBody: (type) => type.startsWith('text/') }),
    );
    expect(page).toMatchObject({ mimeType: 'image/png', bodyRead: false, status: 200 });
    expect(page.body.length).toBe(0);
  });
});

describe('fetchPage: refusals', () => {
  it.each([
    ['ftp://127.0.0.1/x', 'Refused: only http and https URLs are fetched, not ftp:'],
    ['file:///etc/passwd', 'Refused: only http and https URLs are fetched, not file:'],
    ['not a url', 'Refused: not a valid absolute URL.'],
    ['/relative/path', 'Refused: not a valid absolute URL.'],
  ])('refuses %s', async (url, message) => {
    await expectToolError(fetchPage(url, options()), message);
  });

  it('refuses URLs carrying credentials without showing them', async () => {
    const error = await fetchPage(`http://me:secret@127.0.0.1:${server.port}/`, options()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as Error).message).toMatch(/user name or password/);
    expect((error as Error).message).not.toContain('secret');
  });

  it.each([
    ['127.0.0.1', 'Refused: 127.0.0.1 is a loopback address (set CADRE_FETCH_ALLOW to allow it)'],
    ['2130706433', 'Refused: 127.0.0.1 is a loopback address (set CADRE_FETCH_ALLOW to allow it)'],
    ['0x7f.1', 'Refused: 127.0.0.1 is a loopback address (set CADRE_FETCH_ALLOW to allow it)'],
    ['[::1]', 'Refused: ::1 is a loopback address (set CADRE_FETCH_ALLOW to allow it)'],
    [
      '[::ffff:127.0.0.1]',
      'Refused: ::ffff:7f00:1 is an IPv4-mapped loopback address (set CADRE_FETCH_ALLOW to allow it)',
    ],
  ])('refuses the literal host %s by default without connecting', async (host, message) => {
    const before = server.seen.length;
    await expectToolError(
      fetchPage(`http://${host}:${server.port}/plain.txt`, options({ allow: EMPTY_ALLOW })),
      message,
    );
    expect(server.seen.length).toBe(before);
  });

  it('refuses a name whose answers include a blocked address, before connecting', async () => {
    const resolve = stagedResolver({ 'mixed.test': ['93.184.215.14', '10.0.0.5'] });
    await expectToolError(
      fetchPage('http://mixed.test/', options({ allow: EMPTY_ALLOW, resolve })),
      'Refused: mixed.test (10.0.0.5) is a private address (set CADRE_FETCH_ALLOW to allow it)',
    );
    expect(resolve.calls).toEqual(['mixed.test']);
  });

  it('says when a name does not resolve', async () => {
    const resolve = stagedResolver({});
    await expectToolError(
      fetchPage('http://nowhere.test/', options({ resolve })),
      'Could not resolve nowhere.test.',
    );
  });
});

describe('fetchPage: redirects', () => {
  it('follows a chain of redirects to the final page', async () => {
    const page = await fetchPage(server.url('/r3'), options());
    expect(page.url).toBe(server.url('/r3'));
    expect(page.finalUrl).toBe(server.url('/plain.txt'));
    expect(bodyText(page.body)).toBe('hello, plain world');
  });

  it('stops after maxRedirects', async () => {
    await expect(fetchPage(server.url('/r3'), options({ maxRedirects: 2 }))).rejects.toThrow(
      `Stopped after 2 redirects; ${server.url('/r1')} redirects again.`,
    );
    await expect(fetchPage(server.url('/loop'), options())).rejects.toThrow(/Stopped after 5/);
  });

  it('refuses a redirect to a blocked address, naming the hop, without connecting', async () => {
    const resolve = stagedResolver({ 'site.test': ['127.0.0.1'] });
    const before = server.seen.length;
    await expectToolError(
      fetchPage(
        `http://site.test:${server.port}/to-other-ip`,
        options({ allow: parseFetchAllow('site.test'), resolve }),
      ),
      `Refused redirect 1 to http://127.0.0.2:${server.port}/plain.txt: 127.0.0.2 is a loopback ` +
        'address (set CADRE_FETCH_ALLOW to allow it)',
    );
    expect(server.seen.slice(before).map((r) => r.path)).toEqual(['/to-other-ip']);
  });

  it('allows by name only the name: the same server by its IP is refused', async () => {
    const resolve = stagedResolver({ localhost: ['127.0.0.1'] });
    await expectToolError(
      fetchPage(
        `http://localhost:${server.port}/to-ip`,
        options({ allow: parseFetchAllow('localhost'), resolve }),
      ),
      `Refused redirect 1 to http://127.0.0.1:${server.port}/plain.txt: 127.0.0.1 is a loopback ` +
        'address (set CADRE_FETCH_ALLOW to allow it)',
    );
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    await expect(fetchPage(server.url('/to-metadata'), options())).rejects.toThrow(
      'Refused redirect 1 to http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a cloud metadata address',
    );
  });

  it('refuses redirects to other schemes and to URLs with credentials', async () => {
    await expect(fetchPage(server.url('/to-ftp'), options())).rejects.toThrow(
      'Refused redirect 1 to ftp://127.0.0.1/file: only http and https URLs are fetched, not ftp:',
    );
    await expect(fetchPage(server.url('/to-creds'), options())).rejects.toThrow(
      /^Refused redirect 1 to http:\/\/127\.0\.0\.1:\d+\/plain\.txt: URLs carrying a user name or password/,
    );
  });

  it('sends extra headers to the first origin only', async () => {
    const secret = { 'x-subscription-token': 'token-123' };
    const same = await fetchPage(server.url('/headers'), options({ headers: secret }));
    expect(JSON.parse(bodyText(same.body))).toMatchObject(secret);
    const moved = await fetchPage(server.url('/to-other-origin'), options({ headers: secret }));
    expect(moved.finalUrl).toBe(other.url('/headers'));
    expect(JSON.parse(bodyText(moved.body))).not.toHaveProperty('x-subscription-token');
  });
});

describe('fetchPage: DNS rebinding', () => {
  it('connects to the address it vetted, looking the name up once per connection', async () => {
    const resolve = stagedResolver({ 'rebind.test': ['127.0.0.1'] });
    const page = await fetchPage(`http://rebind.test:${server.port}/headers`, options({ resolve }));
    expect(resolve.calls).toEqual(['rebind.test']);
    // The request reached the server on 127.0.0.1 under the name it was vetted for.
    expect(JSON.parse(bodyText(page.body))).toMatchObject({ host: `rebind.test:${server.port}` });
  });

  it('re-vets the name on each hop: a second answer pointing inside is refused', async () => {
    const answers = [['127.0.0.1'], ['10.0.0.5']];
    const resolve = stagedResolver({ 'rebind.test': () => answers.shift() ?? [] });
    const before = server.seen.length;
    await expect(
      fetchPage(`http://rebind.test:${server.port}/same-host-again`, options({ resolve })),
    ).rejects.toThrow(
      `Refused redirect 1 to http://rebind.test:${server.port}/plain.txt: rebind.test (10.0.0.5) is a private address`,
    );
    expect(resolve.calls).toEqual(['rebind.test', 'rebind.test']);
    expect(server.seen.slice(before).map((r) => r.path)).toEqual(['/same-host-again']);
  });
});

describe('fetchPage: size, encodings, time and cancellation', () => {
  it('stops reading a huge body at maxBytes and marks it truncated', async () => {
    const page = await fetchPage(server.url('/huge'), options({ maxBytes: 100_000 }));
    expect(page.body.length).toBe(100_000);
    expect(page.truncated).toBe(true);
  });

  it.each(['/gzip-bomb', '/br-bomb'])(
    'caps the bomb %s at maxBytes of decoded bytes',
    async (path) => {
      const page = await fetchPage(server.url(path), options({ maxBytes: 256 * 1024 }));
      expect(page.body.length).toBe(256 * 1024);
      expect(page.truncated).toBe(true);
      expect(page.body.every((byte) => byte === 0)).toBe(true);
    },
  );

  it('fails a body the server cuts off', async () => {
    await expectToolError(
      fetchPage(server.url('/cut-short'), options()),
      /^The connection (failed while reading the page|closed before the page was complete)/,
    );
  });

  it.each([
    ['/gzip', 'squeezed by gzip'],
    ['/br', 'squeezed by brotli'],
    ['/deflate', 'squeezed by zlib deflate'],
    ['/raw-deflate', 'squeezed by raw deflate'],
  ])('decodes %s', async (path, expected) => {
    const page = await fetchPage(server.url(path), options());
    expect(bodyText(page.body)).toBe(expected);
    expect(page.truncated).toBe(false);
  });

  it('reports corrupt or unknown encodings', async () => {
    await expect(fetchPage(server.url('/corrupt-gzip'), options())).rejects.toThrow(
      'The page could not be decompressed (the server sent corrupt data).',
    );
    await expect(fetchPage(server.url('/zstd'), options())).rejects.toThrow(
      'The server sent the page in an encoding web_fetch cannot read (zstd).',
    );
    await expect(fetchPage(server.url('/stacked'), options())).rejects.toThrow(
      'The server stacked 4 content encodings; web_fetch reads at most 3.',
    );
  });

  it('times out a server that never answers', async () => {
    // Real time on purpose: the fetch's own timeout is the thing tested; the bound says it fired.
    const started = performance.now();
    await expectToolError(
      fetchPage(server.url('/never'), options({ timeoutMs: 300 })),
      `Timed out after 0.3 s fetching ${server.url('/never')}.`,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('times out a body that stops flowing', async () => {
    await expect(fetchPage(server.url('/stall-body'), options({ timeoutMs: 300 }))).rejects.toThrow(
      /^Timed out after 0\.3 s/,
    );
  });

  it('throws CancelledError when the signal aborts while waiting', async () => {
    const controller = new AbortController();
    // Cancelled once the server holds the request: the client is waiting for an answer then.
    void server.reached('/never').then(() => controller.abort());
    await expect(
      fetchPage(server.url('/never'), options({ signal: controller.signal })),
    ).rejects.toBeInstanceOf(CancelledError);
  });

  it('throws CancelledError when the signal aborts mid-body', async () => {
    const controller = new AbortController();
    // Cancelled once the server has sent the head and the start of the body, and then stalls.
    void server.reached('/stall-body').then(() => controller.abort());
    await expect(
      fetchPage(server.url('/stall-body'), options({ signal: controller.signal })),
    ).rejects.toBeInstanceOf(CancelledError);
  });

  it('does not start when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const before = server.seen.length;
    await expect(
      fetchPage(server.url('/plain.txt'), options({ signal: controller.signal })),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(server.seen.length).toBe(before);
  });

  it('says when the server refuses the connection', async () => {
    const closed = await startServer({});
    const url = closed.url('/');
    await closed.close();
    await expect(fetchPage(url, options())).rejects.toThrow(
      `127.0.0.1:${closed.port} refused the connection.`,
    );
  });
});
