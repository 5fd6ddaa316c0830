import type { FastifyInstance } from 'fastify';

/** `GET /healthz`: liveness, no token, no rate limit. */
export function healthRoutes(app: FastifyInstance): void {
  app.get('/healthz', { config: { public: true, rateLimit: false } }, () => ({ ok: true }));
}
