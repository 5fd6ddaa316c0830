import type { FastifyInstance } from 'fastify';

/** Who the bearer token signs in as, so a page can say so. */
export function meRoutes(app: FastifyInstance): void {
  app.get('/api/me', (request) => ({ ok: true, user: { name: request.userName } }));
}
