import type { FastifyInstance } from 'fastify';
import { DEFAULT_PENDING_PAGE, parseInput, pendingQuery, resolveBody } from '../request-schemas.js';
import { streamRunNdjson } from '../stream-run.js';
import { encodeApprovalCursor } from '../approval-cursor.js';
import type { RouteContext } from './route-context.js';

/** Pending approvals, a page at a time, and resolving one (the continued run comes back, as JSON or NDJSON). */
export function approvalRoutes(
  app: FastifyInstance,
  { service, requestSignal }: RouteContext,
): void {
  // Paged: a user with thousands pending must not cost one request seconds and megabytes.
  app.get('/api/agent/approvals/pending', async (request, reply) => {
    const { cursor, limit } = parseInput(pendingQuery, request.query, 'query');
    const page = await service.pendingApprovalPage(
      request.userId,
      { limit: limit ?? DEFAULT_PENDING_PAGE, ...(cursor !== undefined ? { after: cursor } : {}) },
      requestSignal(reply),
    );
    const nextCursor = page.next === undefined ? null : encodeApprovalCursor(page.next);
    return { ok: true, approvals: page.approvals, nextCursor };
  });

  app.post('/api/agent/approvals/resolve', async (request, reply) => {
    const body = parseInput(resolveBody, request.body, 'body');
    const signal = requestSignal(reply);
    return service.resolveApproval(
      { ...body, userId: request.userId, userName: request.userName },
      { signal },
    );
  });

  app.post('/api/agent/approvals/resolve/stream', async (request, reply) => {
    const body = parseInput(resolveBody, request.body, 'body');
    const signal = requestSignal(reply);
    // A resumed run announces its ids (thread included) before its first event.
    await streamRunNdjson({
      reply,
      signal,
      start: (hooks) =>
        service.resolveApproval(
          { ...body, userId: request.userId, userName: request.userName },
          hooks,
        ),
    });
  });
}
