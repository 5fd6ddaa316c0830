import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { SLOW_CLIENT_LIMITS, slowClientGuard, type SlowClientLimits } from './slow-client-guard.js';
import { lineWeight, waitingLines } from './waiting-lines.js';

export interface LazyStreamBody {
  /** True once the 200 is on its way; errors after that go in the body, not the status. */
  readonly opened: boolean;
  /** Text handed to the socket as it drains. */
  write(text: string): void;
  /** Ends the response cleanly (opening it first if nothing was written), once every line is out. */
  end(): void;
}

/**
 * A streamed response body opened lazily, on the first write: until then a
 * failure can still be answered with its proper status code (404, 409...).
 * Lines go to the response one at a time as it drains, so what waits for a
 * slow client is counted here; `onOverflow` runs when the client reads too
 * slowly (see slow-client-guard.ts) and the response is dropped.
 */
export function lazyStreamBody(
  reply: FastifyReply,
  contentType: string,
  onOverflow: () => void,
  limits: SlowClientLimits = SLOW_CLIENT_LIMITS,
): LazyStreamBody {
  let body: PassThrough | undefined;
  const waiting = waitingLines();
  let draining = false;
  let ending = false;
  const drop = (stream: PassThrough): void => {
    waiting.clear();
    stream.destroy();
    onOverflow();
  };
  const guard = slowClientGuard(
    waiting.weight,
    () => {
      if (body) drop(body);
    },
    limits,
  );
  const open = (): PassThrough => {
    if (body) return body;
    const stream = new PassThrough();
    body = stream;
    // A client that left reads nothing more: what waits for it is let go.
    stream.once('close', () => {
      guard.stop();
      waiting.clear();
    });
    void reply
      .status(200)
      .header('content-type', contentType)
      .header('cache-control', 'no-store')
      // Proxies (nginx) must not hold the stream back.
      .header('x-accel-buffering', 'no')
      .send(stream);
    return stream;
  };
  const pump = (stream: PassThrough): void => {
    while (!draining && !stream.destroyed) {
      const line = waiting.next();
      if (line === undefined) break;
      guard.progressed();
      if (!stream.write(line)) {
        draining = true;
        stream.once('drain', () => {
          draining = false;
          pump(stream);
        });
      }
    }
    if (!ending || waiting.size() > 0 || draining || stream.destroyed) return;
    guard.stop();
    if (!stream.writableEnded) stream.end();
  };
  return {
    get opened() {
      return body !== undefined;
    },
    write(text) {
      const stream = open();
      if (stream.destroyed || stream.writableEnded || ending) return;
      if (!guard.admits(lineWeight(text))) return drop(stream);
      waiting.add(text);
      pump(stream);
    },
    end() {
      ending = true;
      pump(open());
    },
  };
}
