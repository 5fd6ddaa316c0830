import type { FastifyInstance } from 'fastify';
import { auditQuery, parseInput } from '../request-schemas.js';
import type { RouteContext } from './route-context.js';

/** One run's audit entries (to its owner), and a check of the whole chain. */
export function auditRoutes(app: FastifyInstance, { service, requestSignal }: RouteContext): void {
  app.get('/api/audit', async (request, reply) => {
    const { runId } = parseInput(auditQuery, request.query, 'query');
    const entries = await service.audit(request.userId, runId, requestSignal(reply));
    return { ok: true, entries };
  });

  // The answer is a verdict and a count: no entry of any user is shown.
  app.get('/api/audit/verify', async (_request, reply) => {
    const verification = await service.verifyAudit(requestSignal(reply));
    return { ok: true, verification };
  });
}
