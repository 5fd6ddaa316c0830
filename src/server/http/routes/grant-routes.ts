import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../errors/cadre-error.js';
import { idParams, parseInput } from '../request-schemas.js';
import type { RouteContext } from './route-context.js';

/** The signed-in user's "always allow" grants: listed, and undone one at a time. */
export function grantRoutes(app: FastifyInstance, { service, requestSignal }: RouteContext): void {
  app.get('/api/grants', async (request, reply) => {
    const grants = await service.listGrants(request.userId, requestSignal(reply));
    return { ok: true, grants };
  });

  app.delete('/api/grants/:id', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    // Another user's grant is not found, exactly like one that never was.
    if (!(await service.revokeGrant(request.userId, id, requestSignal(reply))))
      throw new NotFoundError('No such grant.');
    return { ok: true, revoked: id };
  });
}
