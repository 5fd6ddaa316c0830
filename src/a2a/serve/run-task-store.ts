import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { RunService } from '../../server/run-service-types.js';
import { listRunTasks } from './list-run-tasks.js';
import { loadRunTask } from './run-task-load.js';

/**
 * Tasks are runs. A store lives for one request: a task is read from its
 * run the first time, then what the SDK saves while the request goes on is
 * kept here (so a streamed answer does not reread the run per chunk). The
 * run service stores the run itself; nothing outlives the request. Listing
 * reads the caller's runs of this agent only.
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
    list: (params, context) => listRunTasks(service, agent, params, context),
  };
}
