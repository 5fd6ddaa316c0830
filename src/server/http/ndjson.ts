import type { FastifyReply } from 'fastify';
import { lazyStreamBody } from './lazy-stream-body.js';

export const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8';

export interface NdjsonWriter {
  /** True once the 200 and the first line are on their way; errors after that are lines, not statuses. */
  readonly opened: boolean;
  /** One JSON value per line, handed to the socket as it is written. */
  write(value: unknown): void;
  /** Ends the response cleanly (opening it first if nothing was written). */
  end(): void;
}

/** NDJSON lines over a lazily opened body (see lazy-stream-body.ts). */
export function ndjsonWriter(reply: FastifyReply, onOverflow: () => void): NdjsonWriter {
  const body = lazyStreamBody(reply, NDJSON_TYPE, onOverflow);
  return {
    get opened() {
      return body.opened;
    },
    write: (value) => body.write(`${JSON.stringify(value)}\n`),
    end: () => body.end(),
  };
}

/** Serialises lines for a whole body at once (stored events). */
export function ndjsonBody(values: readonly unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}
