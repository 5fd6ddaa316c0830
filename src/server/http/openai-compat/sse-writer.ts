import type { FastifyReply } from 'fastify';
import { lazyStreamBody } from '../lazy-stream-body.js';

export const SSE_TYPE = 'text/event-stream; charset=utf-8';

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
 * Server-sent events as OpenAI streams them: `data: …` and a blank line,
 * over a lazily opened body, so a failure before the first event still gets
 * its status code. `onOverflow` runs when the client reads too slowly.
 */
export function sseWriter(reply: FastifyReply, onOverflow: () => void): SseWriter {
  const body = lazyStreamBody(reply, SSE_TYPE, onOverflow);
  return {
    get opened() {
      return body.opened;
    },
    // JSON has no raw newlines, so one `data:` line holds the whole value.
    data: (value) => body.write(`data: ${JSON.stringify(value)}\n\n`),
    done: () => {
      body.write('data: [DONE]\n\n');
      body.end();
    },
    end: () => body.end(),
  };
}
