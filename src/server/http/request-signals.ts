import type { FastifyReply } from 'fastify';
import { CancelledError } from '../../errors/cadre-error.js';

/** Hands out one signal per request, aborted when its client leaves or the server shuts down. */
export type RequestSignals = (reply: FastifyReply) => AbortSignal;

/**
 * Per-request signals that hold nothing on `lifetime` per request: one
 * listener there aborts the live requests' controllers, and each leaves the
 * live set when its response closes. (`AbortSignal.any` with `lifetime`, or
 * handing `lifetime` itself to queries, would add a listener or a WeakRef to
 * it for every request.) Read on the response: the request's own 'close'
 * says nothing reliable about the connection.
 */
export function createRequestSignals(lifetime: AbortSignal): RequestSignals {
  const live = new Set<AbortController>();
  // Auth and the route ask for the same request's signal: one controller for both.
  const made = new WeakMap<FastifyReply, AbortSignal>();
  lifetime.addEventListener(
    'abort',
    () => {
      for (const controller of live) controller.abort(lifetime.reason);
      live.clear();
    },
    { once: true },
  );
  return (reply) => {
    const known = made.get(reply);
    if (known) return known;
    const controller = new AbortController();
    made.set(reply, controller.signal);
    const response = reply.raw;
    const disconnected = () => !response.writableFinished;
    if (lifetime.aborted) controller.abort(lifetime.reason);
    // Closed already (the client left while auth looked its token up): 'close' will not come again.
    else if (response.destroyed) {
      if (disconnected()) controller.abort(new CancelledError('The client disconnected.'));
    } else {
      live.add(controller);
      response.once('close', () => {
        live.delete(controller);
        if (disconnected()) controller.abort(new CancelledError('The client disconnected.'));
      });
    }
    return controller.signal;
  };
}
