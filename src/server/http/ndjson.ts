import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

export const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8';

/** A client that stops reading is dropped rather than buffered for without end. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface NdjsonWriter {
  /** True once the 200 and the first line are on their way; errors after that are lines, not statuses. */
  readonly opened: boolean;
  /** One JSON value per line, handed to the socket as it is written. */
  write(value: unknown): void;
  /** Ends the response cleanly (opening it first if nothing was written). */
  end(): void;
}

/**
 * Opens the response lazily, on the first line: until then a failure can
 * still be answered with its proper status code (404, 409...).
 * `onOverflow` runs when the client reads too slowly.
 */
export function ndjsonWriter(reply: FastifyReply, onOverflow: () => void): NdjsonWriter {
  let body: PassThrough | undefined;
  const open = (): PassThrough => {
    if (body) return body;
    body = new PassThrough();
    void reply
      .status(200)
      .header('content-type', NDJSON_TYPE)
      .header('cache-control', 'no-store')
      // Proxies (nginx) must not hold lines back.
      .header('x-accel-buffering', 'no')
      .send(body);
    return body;
  };
  return {
    get opened() {
      return body !== undefined;
    },
    write(value) {
      const stream = open();
      if (stream.destroyed || stream.writableEnded) return;
      stream.write(`${JSON.stringify(value)}\n`);
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

/** Serialises lines for a whole body at once (stored events). */
export function ndjsonBody(values: readonly unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}
