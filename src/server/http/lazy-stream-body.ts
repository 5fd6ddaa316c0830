import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A client that stops reading is dropped rather than buffered for without end. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface LazyStreamBody {
  /** True once the 200 is on its way; errors after that go in the body, not the status. */
  readonly opened: boolean;
  /** Text handed to the socket as it is written. */
  write(text: string): void;
  /** Ends the response cleanly (opening it first if nothing was written). */
  end(): void;
}

/**
 * A streamed response body opened lazily, on the first write: until then a
 * failure can still be answered with its proper status code (404, 409...).
 * `onOverflow` runs when the client reads too slowly.
 */
export function lazyStreamBody(
  reply: FastifyReply,
  contentType: string,
  onOverflow: () => void,
): LazyStreamBody {
  let body: PassThrough | undefined;
  const open = (): PassThrough => {
    if (body) return body;
    body = new PassThrough();
    void reply
      .status(200)
      .header('content-type', contentType)
      .header('cache-control', 'no-store')
      // Proxies (nginx) must not hold the stream back.
      .header('x-accel-buffering', 'no')
      .send(body);
    return body;
  };
  return {
    get opened() {
      return body !== undefined;
    },
    write(text) {
      const stream = open();
      if (stream.destroyed || stream.writableEnded) return;
      stream.write(text);
      if (stream.writableLength + stream.readableLength > MAX_BUFFERED_BYTES) {
        stream.destroy();
        onOverflow();
      }
    },
    end() {
      const stream = open();
      if (!stream.destroyed && !stream.writableEnded) stream.end();
    },
  };
}
