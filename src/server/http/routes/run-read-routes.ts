import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../errors/cadre-error.js';
import { NDJSON_TYPE, ndjsonBody } from '../ndjson.js';
import { requestSignal } from '../request-signal.js';
import { eventsQuery, idParams, parseInput } from '../request-schemas.js';
import type { RouteContext } from './route-context.js';

/** A run with its actions and events, and its stored events from a cursor (re-attaching after a disconnect). */
export function runReadRoutes(app: FastifyInstance, { service, lifetime }: RouteContext): void {
  app.get('/api/runs/:id', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const view = await service.getRun(request.userId, id, requestSignal(reply, lifetime));
    if (!view) throw new NotFoundError('No such run.');
    return { ok: true, ...view };
  });

  app.get('/api/runs/:id/events', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const { after } = parseInput(eventsQuery, request.query, 'query');
    const events = await service.readEvents(
      request.userId,
      id,
      after ?? 0,
      requestSignal(reply, lifetime),
    );
    if (!events) throw new NotFoundError('No such run.');
    // One stored event per line, in the same shape the live stream's `event` lines carry.
    return reply
      .header('content-type', NDJSON_TYPE)
      .header('cache-control', 'no-store')
      .send(ndjsonBody(events.map((e) => e.event)));
  });
}
