import type { TrajectoryView } from '../../../src/server/trajectory-view-types.js';
import { ApiError } from './api-error.js';
import { authorizedFetch } from './authorized-fetch.js';
import { readNdjson } from './read-ndjson.js';
import { toStreamLine } from './stream-line.js';

export type {
  TrajectoryView,
  TrajectoryStepView,
  TrajectoryCallView,
  TrajectoryCallResult,
} from '../../../src/server/trajectory-view-types.js';

export interface ForkBody {
  /** 0-based model step. */
  step: number;
  prompt: string;
}

/** A recorded run, and forks of it; the bearer token attached as for every other call. */
export interface TrajectoryApi {
  trajectory(runId: string, signal?: AbortSignal): Promise<TrajectoryView>;
  /** The trajectory file as recorded (`cadre replay FILE` reads it). */
  exportFile(runId: string, signal?: AbortSignal): Promise<Blob>;
  /** Starts the fork and resolves with its ids as soon as the server names them; the run goes on. */
  fork(
    runId: string,
    body: ForkBody,
    signal?: AbortSignal,
  ): Promise<{ runId: string; threadId: string }>;
}

export function createTrajectoryApi(token: string, onUnauthorized: () => void): TrajectoryApi {
  const send = authorizedFetch(token, onUnauthorized);
  const path = (runId: string, rest: string) => `/api/runs/${encodeURIComponent(runId)}/${rest}`;
  return {
    async trajectory(runId, signal) {
      const response = await send(path(runId, 'trajectory'), signal ? { signal } : {});
      const body = (await response.json()) as {
        recorded?: boolean;
        message?: string;
        trajectory?: TrajectoryView;
      };
      // A run that kept no trajectory is answered 200 (no 404 in the console): the reason stays an error here.
      if (body.recorded === false)
        throw new ApiError(404, 'not_found', body.message ?? 'This run was not recorded.');
      if (!body.trajectory)
        throw new ApiError(response.status, 'empty', 'The server sent no trajectory.');
      return body.trajectory;
    },
    async exportFile(runId, signal) {
      const response = await send(path(runId, 'trajectory/export'), signal ? { signal } : {});
      return response.blob();
    },
    async fork(runId, body, signal) {
      const response = await send(path(runId, 'fork/stream'), {
        method: 'POST',
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
      if (!response.body) throw new ApiError(response.status, 'empty', 'The server sent no body.');
      // Leaving the loop cancels the body: the page detaches, the fork runs on in its thread.
      for await (const value of readNdjson(response.body)) {
        const line = toStreamLine(value);
        if (line?.type === 'status' && line.runId && line.threadId)
          return { runId: line.runId, threadId: line.threadId };
        if (line?.type === 'result')
          return { runId: line.result.runId, threadId: line.result.threadId };
        if (line?.type === 'error')
          throw new ApiError(response.status, line.error.code, line.error.message);
      }
      throw new ApiError(response.status, 'empty', 'The fork ended before it started.');
    },
  };
}
