import type { FastifyInstance } from 'fastify';
import { CancelledError } from '../../errors/cadre-error.js';

/** How long close() waits for requests that ignore the abort before cutting them off. */
const MAX_GRACE_MS = 10_000;

/**
 * Closing: abort every running run (so responses end with what they have),
 * wait for open requests to finish, then drop the connections left over —
 * keep-alive and never-used ones would otherwise hold close() open for
 * their whole timeout.
 */
export function registerGracefulClose(app: FastifyInstance, shutdown: AbortController): void {
  let inFlight = 0;
  let closing = false;
  const dropConnections = () => setImmediate(() => app.server.closeAllConnections());
  app.addHook('onRequest', (_request, reply, done) => {
    inFlight += 1;
    reply.raw.once('close', () => {
      inFlight -= 1;
      if (closing && inFlight === 0) dropConnections();
    });
    done();
  });
  app.addHook('preClose', (done) => {
    closing = true;
    shutdown.abort(new CancelledError('The server is shutting down.'));
    if (inFlight === 0) dropConnections();
    else setTimeout(() => app.server.closeAllConnections(), MAX_GRACE_MS).unref();
    done();
  });
}
