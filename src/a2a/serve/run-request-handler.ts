import { TaskState, type AgentCard, type CancelTaskRequest, type Task } from '@a2a-js/sdk';
import { TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type ServerCallContext } from '@a2a-js/sdk/server';
import type { RunService } from '../../server/run-service-types.js';
import { callSignal, callUser, runExecutor } from './run-executor.js';
import { loadRunTask, runTaskStore } from './run-task-store.js';
import { runTask } from './run-task.js';

const FINAL: readonly TaskState[] = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_REJECTED,
];

/**
 * The SDK's request handler over runs, with cancelling done by the run
 * service: the SDK's own cancel reaches an executor only through an event
 * bus of the same process and request, and a task here is a run that may be
 * driven anywhere. `CancelTask` cancels the run (as `cadre cancel` does) and
 * answers once it has stopped.
 */
export class RunRequestHandler extends DefaultRequestHandler {
  constructor(
    card: AgentCard,
    private readonly service: RunService,
    private readonly agent: string,
  ) {
    super(card, runTaskStore(service, agent), runExecutor(service, agent));
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await loadRunTask(this.service, this.agent, params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    const state = task.status?.state;
    if (state === TaskState.TASK_STATE_CANCELED) return task;
    if (state !== undefined && FINAL.includes(state))
      throw new TaskNotCancelableError(`Task ${params.id} has already ended.`);
    const userId = callUser(context);
    const signal = callSignal(context);
    const cancelled = await this.service.cancelRun(userId, params.id, signal);
    if (!cancelled) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    // A running run stops at its next step, wherever it runs: wait for that.
    const settled =
      cancelled.status === 'running'
        ? ((await this.service.followRun(userId, params.id, 0, signal ? { signal } : {})) ??
          cancelled)
        : cancelled;
    const after = runTask(settled);
    if (after.status?.state !== TaskState.TASK_STATE_CANCELED)
      throw new TaskNotCancelableError(`Task ${params.id} ended before it could be cancelled.`);
    return after;
  }
}
