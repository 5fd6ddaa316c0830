import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../errors/cadre-error.js';
import { idParams, parseInput } from '../request-schemas.js';
import type { RouteContext } from './route-context.js';

/** The user's threads; another user's thread is 404, exactly like a missing one. */
export function threadRoutes(app: FastifyInstance, { service, requestSignal }: RouteContext): void {
  app.get('/api/threads', async (request, reply) => {
    const threads = await service.listThreads(request.userId, requestSignal(reply));
    return { ok: true, threads };
  });

  app.get('/api/threads/:id', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const view = await service.getThread(request.userId, id, requestSignal(reply));
    if (!view) throw new NotFoundError('No such thread.');
    return { ok: true, ...view };
  });
}
