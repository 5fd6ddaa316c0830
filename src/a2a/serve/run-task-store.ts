import type { ListTasksResponse, Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { RunService } from '../../server/run-service-types.js';
import { callSignal, callUser } from './run-executor.js';
import { runTask } from './run-task.js';

/** Reads the caller's run of `agent` as a task (another user's or another agent's is not there). */
export async function loadRunTask(
  service: RunService,
  agent: string,
  taskId: string,
  context: ServerCallContext,
): Promise<Task | undefined> {
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
}

/**
 * Tasks are runs. A store lives for one request: a task is read from its
 * run the first time, then what the SDK saves while the request goes on is
 * kept here (so a streamed answer does not reread the run per chunk). The
 * run service stores the run itself; nothing outlives the request.
 */
export function runTaskStore(service: RunService, agent: string): TaskStore {
  const seen = new Map<string, Task>();
  return {
    load: async (taskId: string, context: ServerCallContext): Promise<Task | undefined> => {
      const kept = seen.get(taskId);
      if (kept) return structuredClone(kept);
      return loadRunTask(service, agent, taskId, context);
    },
    save: (task: Task) => {
      seen.set(task.id, structuredClone(task));
      return Promise.resolve();
    },
    list: (): Promise<ListTasksResponse> =>
      Promise.reject(new UnsupportedOperationError('Listing tasks is not offered; get one by id.')),
  };
}
