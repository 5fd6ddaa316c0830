import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../errors/cadre-error.js';
import { forkBody, idParams, parseInput } from '../request-schemas.js';
import { streamRunNdjson } from '../stream-run.js';
import type { RouteContext } from './route-context.js';

/** A recorded run step by step, and forks of it: only the run's owner sees or forks it. */
export function trajectoryRoutes(
  app: FastifyInstance,
  { service, requestSignal }: RouteContext,
): void {
  // A run of the user's that kept no trajectory is a plain answer, not a 404: the page asks
  // for every run it shows, and a browser logs each 404 as an error.
  app.get('/api/runs/:id/trajectory', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const trajectory = await service
      .trajectory(request.userId, id, requestSignal(reply))
      .catch((error: unknown) => {
        if (error instanceof NotFoundError) return { notRecorded: error.message };
        throw error;
      });
    if (!trajectory) throw new NotFoundError('No such run.');
    if ('notRecorded' in trajectory)
      return { ok: true, recorded: false, message: trajectory.notRecorded };
    return { ok: true, recorded: true, trajectory };
  });

  // The file itself, to download: `cadre replay FILE` and evals read it as a recorded run.
  app.get('/api/runs/:id/trajectory/export', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const file = await service.trajectoryFile(request.userId, id, requestSignal(reply));
    if (!file) throw new NotFoundError('No such run.');
    void reply.header('content-disposition', `attachment; filename="run-${id}.trajectory.json"`);
    return file;
  });

  // Like `POST /api/agent/run`: one JSON response when the new run settles or waits for approval.
  app.post('/api/runs/:id/fork', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const { step, prompt } = parseInput(forkBody, request.body, 'body');
    const result = await service.forkRun(
      { userId: request.userId, runId: id, step, prompt },
      { signal: requestSignal(reply) },
    );
    if (!result) throw new NotFoundError('No such run.');
    return result;
  });

  app.post('/api/runs/:id/fork/stream', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const { step, prompt } = parseInput(forkBody, request.body, 'body');
    await streamRunNdjson({
      reply,
      signal: requestSignal(reply),
      start: async (hooks) => {
        const result = await service.forkRun(
          { userId: request.userId, runId: id, step, prompt },
          hooks,
        );
        if (!result) throw new NotFoundError('No such run.');
        return result;
      },
    });
  });
}
