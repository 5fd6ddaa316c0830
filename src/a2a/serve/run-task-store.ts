import type { ListTasksResponse, Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { RunService } from '../../server/run-service-types.js';
import { callSignal, callUser } from './run-executor.js';
import { runTask } from './run-task.js';

/**
 * Tasks are runs: loading one reads the caller's run of this agent (another
 * user's or another agent's is not there), and nothing is kept besides what
 * the run service stores.
 */
export function runTaskStore(service: RunService, agent: string): TaskStore {
  return {
    load: async (taskId: string, context: ServerCallContext): Promise<Task | undefined> => {
      const userId = callUser(context);
      const signal = callSignal(context);
      const view = await service.getRun(userId, taskId, signal).catch(() => undefined);
      if (!view || view.run.agent !== agent) return undefined;
      const approvals =
        view.run.status === 'awaiting_confirmation'
          ? (await service.pendingApprovals(userId, signal)).filter((a) => a.runId === taskId)
          : [];
      return runTask({
        runId: view.run.id,
        threadId: view.run.threadId,
        status: view.run.status,
        summary: view.run.summary,
        approvals,
        updatedAt: view.run.updatedAt,
      });
    },
    // The run service has already stored the run the task is read from.
    save: () => Promise.resolve(),
    list: (): Promise<ListTasksResponse> =>
      Promise.reject(new UnsupportedOperationError('Listing tasks is not offered; get one by id.')),
  };
}
