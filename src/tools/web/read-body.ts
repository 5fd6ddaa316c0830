import { pipeline, type Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { ToolExecutionError } from '../../errors/index.js';

export interface BodyRead {
  body: Buffer;
  /** True when the body went on past the cap and was cut. */
  truncated: boolean;
}

/** The encodings web_fetch asks for; each has a streaming decoder. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** More stacked encodings than this is no real server; each stage costs a zlib context. */
const MAX_ENCODINGS = 3;

/**
 * Decoders for a `content-encoding` header, in the order to apply them (the
 * header lists them in the order they were applied). Throws for one it lacks.
 */
function decodersFor(contentEncoding: string | undefined): Transform[] {
  const names = (contentEncoding ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity');
  if (names.length > MAX_ENCODINGS) {
    throw new ToolExecutionError(
      `The server stacked ${names.length} content encodings; web_fetch reads at most ${MAX_ENCODINGS}.`,
    );
  }
  const unknown = names.find((name) => !['gzip', 'x-gzip', 'br', 'deflate'].includes(name));
  if (unknown !== undefined) {
    throw new ToolExecutionError(
      `The server sent the page in an encoding web_fetch cannot read (${unknown}).`,
    );
  }
  return names.reverse().map((name) => {
    if (name === 'br') return zlib.createBrotliDecompress();
    if (name === 'deflate') return deflateDecoder();
    return zlib.createGunzip();
  });
}

/** `deflate` should be zlib-wrapped, but some servers send it raw; the first bytes tell them apart. */
function deflateDecoder(): Transform {
  let inner: Transform | undefined;
  const outer: Transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      inner ??= startInflate(chunk, outer);
      inner.write(chunk, () => callback());
    },
    flush(callback) {
      if (inner === undefined) return callback();
      inner.once('end', () => callback());
      inner.end();
    },
    destroy(error, callback) {
      inner?.destroy();
      callback(error);
    },
  });
  return outer;
}

function startInflate(first: Buffer, outer: Transform): Transform {
  // A zlib header: compression method 8, and the two bytes read as a number divide by 31.
  const wrapped =
    first.length >= 2 && (first.readUInt8(0) & 0x0f) === 8 && first.readUInt16BE(0) % 31 === 0;
  const inner = wrapped ? zlib.createInflate() : zlib.createInflateRaw();
  inner.on('data', (data: Buffer) => outer.push(data));
  inner.on('error', (error) => outer.destroy(error));
  return inner;
}

/**
 * Reads a response body, decoding it, keeping at most `maxBytes` decoded bytes.
 * The cap counts decoded bytes, so a small compressed bomb stops at the cap.
 * Rejects with `signal.reason` when the signal aborts.
 */
export function readBody(
  source: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  signal: AbortSignal,
): Promise<BodyRead> {
  const decoders = decodersFor(contentEncoding);
  return new Promise<BodyRead>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let wire = 0;
    let settled = false;
    const [last] = decoders.slice(-1);
    const decoded: Readable = last ?? source;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      decoded.off('data', onData);
      source.destroy();
      for (const decoder of decoders) decoder.destroy();
      finish();
    };
    const done = (truncated: boolean): void =>
      settle(() => resolve({ body: Buffer.concat(chunks, size), truncated }));
    const fail = (error: unknown): void => settle(() => reject(error));
    const onAbort = (): void => fail(signal.reason);

    function onData(chunk: Buffer): void {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        done(true);
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    }

    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    if (last !== undefined) {
      // pipeline forwards errors and destroys every stage; its callback sees any failure.
      pipeline([source, ...decoders], (error) => {
        if (error) fail(bodyError(error, true));
      });
      // Bytes on the wire count too: an encoding can expand to nothing.
      source.on('data', (chunk: Buffer) => {
        wire += chunk.length;
        if (wire > maxBytes) done(true);
      });
    } else {
      source.on('error', (error) => fail(bodyError(error, false)));
      // A close before `end` is a body cut off mid-way (after `end`, this is a no-op).
      source.once('close', () =>
        fail(new ToolExecutionError('The connection closed before the page was complete.')),
      );
    }
    decoded.on('data', onData);
    decoded.once('end', () => done(false));
  });
}

function bodyError(error: Error, decoding: boolean): ToolExecutionError {
  const code = (error as NodeJS.ErrnoException).code;
  if (decoding && code?.startsWith('Z_'))
    return new ToolExecutionError(
      'The page could not be decompressed (the server sent corrupt data).',
    );
  return new ToolExecutionError(
    `The connection failed while reading the page${code ? ` (${code})` : ''}.`,
    { cause: error },
  );
}
