import type { FastifyReply } from 'fastify';
import { CancelledError } from '../../errors/cadre-error.js';

/**
 * A signal that aborts when the client goes away before its response is
 * complete, or when the server shuts down. Read on the response: the
 * request's own 'close' says nothing reliable about the connection.
 */
export function requestSignal(reply: FastifyReply, lifetime: AbortSignal): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished)
      controller.abort(new CancelledError('The client disconnected.'));
  });
  return AbortSignal.any([controller.signal, lifetime]);
}
