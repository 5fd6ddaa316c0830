import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../errors/cadre-error.js';
import { NDJSON_TYPE, ndjsonBody } from '../ndjson.js';
import { eventsQuery, idParams, parseInput } from '../request-schemas.js';
import { streamRunNdjson } from '../stream-run.js';
import type { RouteContext } from './route-context.js';

/** A run with its actions and events, and its stored events from a cursor (re-attaching after a disconnect). */
export function runReadRoutes(
  app: FastifyInstance,
  { service, requestSignal }: RouteContext,
): void {
  app.get('/api/runs/:id', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const view = await service.getRun(request.userId, id, requestSignal(reply));
    if (!view) throw new NotFoundError('No such run.');
    return { ok: true, ...view };
  });

  app.post('/api/runs/:id/cancel', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const result = await service.cancelRun(request.userId, id, requestSignal(reply));
    if (!result) throw new NotFoundError('No such run.');
    return result;
  });

  // Re-attach: the stored events after the cursor, then live ones, until the run settles.
  app.get('/api/runs/:id/stream', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const { after } = parseInput(eventsQuery, request.query, 'query');
    await streamRunNdjson({
      reply,
      signal: requestSignal(reply),
      start: async (hooks) => {
        const result = await service.followRun(request.userId, id, after ?? 0, hooks);
        if (!result) throw new NotFoundError('No such run.');
        return result;
      },
    });
  });

  app.get('/api/runs/:id/events', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const { after } = parseInput(eventsQuery, request.query, 'query');
    const events = await service.readEvents(request.userId, id, after ?? 0, requestSignal(reply));
    if (!events) throw new NotFoundError('No such run.');
    // One stored event per line, in the same shape the live stream's `event` lines carry.
    return reply
      .header('content-type', NDJSON_TYPE)
      .header('cache-control', 'no-store')
      .send(ndjsonBody(events.map((e) => e.event)));
  });
}
