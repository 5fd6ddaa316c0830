import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

export const SSE_TYPE = 'text/event-stream; charset=utf-8';

/** A client that stops reading is dropped rather than buffered for without end. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface SseWriter {
  /** True once the 200 is on its way; errors after that are events, not statuses. */
  readonly opened: boolean;
  /** One `data:` event holding a JSON value. */
  data(value: unknown): void;
  /** OpenAI's `data: [DONE]`, then the end of the response. */
  done(): void;
  /** Ends the response without `[DONE]` (after an error event), opening it first if need be. */
  end(): void;
}

/**
 * Server-sent events as OpenAI streams them: `data: …` and a blank line.
 * Opened lazily, on the first event, so a failure before it still gets its
 * status code. `onOverflow` runs when the client reads too slowly.
 */
export function sseWriter(reply: FastifyReply, onOverflow: () => void): SseWriter {
  let body: PassThrough | undefined;
  const open = (): PassThrough => {
    if (body) return body;
    body = new PassThrough();
    void reply
      .status(200)
      .header('content-type', SSE_TYPE)
      .header('cache-control', 'no-store')
      // Proxies (nginx) must not hold events back.
      .header('x-accel-buffering', 'no')
      .send(body);
    return body;
  };
  const write = (text: string): void => {
    const stream = open();
    if (stream.destroyed || stream.writableEnded) return;
    stream.write(text);
    if (stream.writableLength + stream.readableLength > MAX_BUFFERED_BYTES) {
      stream.destroy();
      onOverflow();
    }
  };
  const end = (): void => {
    const stream = open();
    if (!stream.destroyed && !stream.writableEnded) stream.end();
  };
  return {
    get opened() {
      return body !== undefined;
    },
    // JSON has no raw newlines, so one `data:` line holds the whole value.
    data: (value) => write(`data: ${JSON.stringify(value)}\n\n`),
    done: () => {
      write('data: [DONE]\n\n');
      end();
    },
    end,
  };
}
