import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyStreamBody } from './lazy-stream-body.js';
import { SLOW_CLIENT_LIMITS, type SlowClientLimits } from './slow-client-guard.js';

/** What the route wrote before it stopped, and whether the client was cut off. */
interface Written {
  bytes: number;
  cutOff: boolean;
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/**
 * A real server on loopback whose one route streams what `writeAll` writes
 * through lazyStreamBody; `finished` settles when the route is done writing.
 */
async function serve(
  limits: SlowClientLimits,
  writeAll: (write: (text: string) => boolean) => Promise<void> | void,
): Promise<{ url: string; finished: Promise<Written> }> {
  let settle: (written: Written) => void = () => undefined;
  const finished = new Promise<Written>((resolve) => (settle = resolve));
  app = Fastify();
  app.get('/stream', async (_request, reply) => {
    const written: Written = { bytes: 0, cutOff: false };
    const body = lazyStreamBody(
      reply,
      'application/x-ndjson',
      () => {
        written.cutOff = true;
      },
      limits,
    );
    await writeAll((text) => {
      if (written.cutOff) return false;
      body.write(text);
      written.bytes += text.length;
      return !written.cutOff;
    });
    body.end();
    settle(written);
    return reply;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/stream`, finished };
}

/** Opens the stream; the response is handed over unread (paused). */
function open(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads the body to its end; `whole` is false when the server cut it off first. */
function readAll(res: IncomingMessage): Promise<{ text: string; whole: boolean }> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    const done = (whole: boolean): void =>
      resolve({ text: Buffer.concat(parts).toString(), whole });
    res.on('data', (chunk: Buffer) => parts.push(chunk));
    res.on('end', () => done(res.complete));
    res.on('error', () => done(false));
    res.on('aborted', () => done(false));
    res.resume();
  });
}

/** The pace of a run that keeps talking: a line every millisecond. */
const pace = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

const LINE = `${'x'.repeat(16 * 1024 - 1)}\n`;

describe('lazyStreamBody against a client on loopback (real server)', () => {
  it('cuts off a client that stops reading once it has been past the soft limit for the stall time', async () => {
    const limits = { softBytes: 256 * 1024, hardBytes: 64 * 1024 * 1024, stallMs: 200 };
    // Past what loopback's socket buffers take in (tens of MB), well short of the hard limit.
    const ceiling = 60 * 1024 * 1024;
    const { url, finished } = await serve(limits, async (write) => {
      for (let bytes = 0; bytes < ceiling; bytes += LINE.length) {
        if (!write(LINE)) return;
        await pace();
      }
    });
    const res = await open(url);
    const written = await finished;
    expect(written.cutOff).toBe(true);
    expect(written.bytes).toBeLessThan(ceiling);
    // Reading again, the client finds its stream cut short.
    const read = await readAll(res);
    expect(read.whole).toBe(false);
    expect(read.text.length).toBeLessThan(written.bytes);
  }, 60_000);

  it('cuts off at once past the hard limit, even within one turn of the event loop', async () => {
    const limits = { softBytes: 256 * 1024, hardBytes: 1024 * 1024, stallMs: 60_000 };
    const { url, finished } = await serve(limits, (write) => {
      for (let i = 0; i < 1024; i += 1) if (!write(LINE)) return;
    });
    const res = await open(url);
    const written = await finished;
    expect(written.cutOff).toBe(true);
    // What loopback took in before the queue began, plus the hard limit: far from all 16 MB.
    expect(written.bytes).toBeLessThan(8 * 1024 * 1024);
    expect((await readAll(res)).whole).toBe(false);
  });

  it('hands a reading client 12 MB written in one turn, then four lines each larger than the soft limit (default limits)', async () => {
    const small = `${'s'.repeat(1023)}\n`;
    const large = `${'L'.repeat(SLOW_CLIENT_LIMITS.softBytes + 1024 * 1024 - 1)}\n`;
    const { url, finished } = await serve(SLOW_CLIENT_LIMITS, (write) => {
      for (let i = 0; i < 12 * 1024; i += 1) write(small);
      for (let i = 0; i < 4; i += 1) write(large);
    });
    const { text, whole } = await readAll(await open(url));
    const written = await finished;
    expect(written.cutOff).toBe(false);
    expect(whole).toBe(true);
    expect(text.length).toBe(12 * 1024 * small.length + 4 * large.length);
    expect(text.endsWith(large)).toBe(true);
  }, 60_000);
});
