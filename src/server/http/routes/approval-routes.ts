import type { FastifyInstance } from 'fastify';
import { parseInput, resolveBody } from '../request-schemas.js';
import { streamRun } from '../stream-run.js';
import type { RouteContext } from './route-context.js';

/** Pending approvals, and resolving one (the continued run comes back, as JSON or NDJSON). */
export function approvalRoutes(
  app: FastifyInstance,
  { service, requestSignal }: RouteContext,
): void {
  app.get('/api/agent/approvals/pending', async (request, reply) => {
    const approvals = await service.pendingApprovals(request.userId, requestSignal(reply));
    return { ok: true, approvals };
  });

  app.post('/api/agent/approvals/resolve', async (request, reply) => {
    const body = parseInput(resolveBody, request.body, 'body');
    const signal = requestSignal(reply);
    return service.resolveApproval({ ...body, userId: request.userId }, { signal });
  });

  app.post('/api/agent/approvals/resolve/stream', async (request, reply) => {
    const body = parseInput(resolveBody, request.body, 'body');
    const signal = requestSignal(reply);
    // A resumed run announces its ids (thread included) before its first event.
    await streamRun({
      reply,
      signal,
      start: (hooks) => service.resolveApproval({ ...body, userId: request.userId }, hooks),
    });
  });
}
