import type { FastifyInstance } from 'fastify';
import { parseInput, runBody } from '../request-schemas.js';
import { runRequest } from '../run-request.js';
import { streamRunNdjson } from '../stream-run.js';
import type { RouteContext } from './route-context.js';

/** `POST /api/agent/run` (one JSON response) and `/api/agent/run/stream` (NDJSON). */
export function runRoutes(app: FastifyInstance, { service, requestSignal }: RouteContext): void {
  app.post('/api/agent/run', async (request, reply) => {
    const body = parseInput(runBody, request.body, 'body');
    const signal = requestSignal(reply);
    return service.run(runRequest(body, request.userId, request.headers), { signal });
  });

  app.post('/api/agent/run/stream', async (request, reply) => {
    const body = parseInput(runBody, request.body, 'body');
    const signal = requestSignal(reply);
    await streamRunNdjson({
      reply,
      signal,
      start: (hooks) => service.run(runRequest(body, request.userId, request.headers), hooks),
    });
  });
}
