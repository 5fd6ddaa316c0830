import {
  TaskState,
  type AgentCard,
  type CancelTaskRequest,
  type GetTaskRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
} from '@a2a-js/sdk';
import {
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import {
  DefaultExecutionEventBus,
  DefaultRequestHandler,
  ExecutionEventQueue,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import type { RunResponse, RunService } from '../../server/run-service-types.js';
import { callSignal, callUser, runExecutor } from './run-executor.js';
import { loadRunTask } from './run-task-load.js';
import { runTaskStore } from './run-task-store.js';
import { runTask } from './run-task.js';
import { taskEvents } from './task-events.js';

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
 * answers once it has stopped; `SubscribeToTask` follows the run from its
 * stored events, wherever it runs, until it settles.
 */
export class RunRequestHandler extends DefaultRequestHandler {
  constructor(
    card: AgentCard,
    private readonly service: RunService,
    private readonly agent: string,
    /** The agent has structured inputs: a message's data part is them. */
    takesInputs = false,
  ) {
    super(card, runTaskStore(service, agent), runExecutor(service, agent, takesInputs));
  }

  /** The task with its history (the run's messages), the last `historyLength` of it when asked. */
  override async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await loadRunTask(this.service, this.agent, params.id, context, { history: true });
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    const length = params.historyLength;
    if (length === undefined) return task;
    return { ...task, history: length <= 0 ? [] : task.history.slice(-length) };
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await loadRunTask(this.service, this.agent, params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    const state = task.status?.state;
    // Canceled is final too: the spec answers TaskNotCancelable (-32002), not the task again.
    if (state === TaskState.TASK_STATE_CANCELED)
      throw new TaskNotCancelableError(`Task ${params.id} is already canceled.`);
    if (state !== undefined && FINAL.includes(state))
      throw new TaskNotCancelableError(`Task ${params.id} has already ended.`);
    const userId = callUser(context);
    const signal = callSignal(context);
    const cancelled = await this.service.cancelRun(userId, params.id, signal);
    if (!cancelled) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    const settled =
      cancelled.status === 'running'
        ? await this.untilStopped(params.id, cancelled, context)
        : cancelled;
    const after = runTask(settled);
    // Still running: the wait was cut short, the cancel is asked for and goes on; the task as it stands.
    if (settled.status === 'running') return after;
    if (after.status?.state !== TaskState.TASK_STATE_CANCELED)
      throw new TaskNotCancelableError(`Task ${params.id} ended before it could be cancelled.`);
    return after;
  }

  /**
   * A running run stops at its next step, wherever it runs: wait for that.
   * A caller that leaves meanwhile ends the wait, not the cancel: the run as
   * last seen (still running) is the answer.
   */
  private async untilStopped(
    taskId: string,
    cancelled: RunResponse,
    context: ServerCallContext,
  ): Promise<RunResponse> {
    const signal = callSignal(context);
    try {
      return (
        (await this.service.followRun(callUser(context), taskId, 0, signal ? { signal } : {})) ??
        cancelled
      );
    } catch (error) {
      if (signal?.aborted) return cancelled;
      throw error;
    }
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const task = await loadRunTask(this.service, this.agent, params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    const state = task.status?.state;
    if (state === TaskState.TASK_STATE_CANCELED || (state !== undefined && FINAL.includes(state)))
      throw new UnsupportedOperationError(`Task ${params.id} has ended; get it with GetTask.`);
    yield { payload: { $case: 'task', value: task } };
    // Nothing happens to a waiting task until someone decides: the snapshot is all there is.
    if (state === TaskState.TASK_STATE_INPUT_REQUIRED) return;
    const bus = new DefaultExecutionEventBus();
    const queue = new ExecutionEventQueue(bus);
    const events = taskEvents(bus, { known: { runId: task.id, threadId: task.contextId } });
    const signal = callSignal(context);
    // From the run's first event: the answer so far arrives as chunks, then the rest as it comes.
    const following = this.service
      .followRun(callUser(context), params.id, 0, {
        onEvent: (event) => events.event(event),
        ...(signal ? { signal } : {}),
      })
      .then((settled) => settled && events.settled(settled))
      .finally(() => bus.finished());
    // A subscriber that leaves first must not leave the follow's failure unhandled.
    following.catch(() => undefined);
    try {
      for await (const event of queue.events()) {
        if (event.kind === 'statusUpdate' || event.kind === 'artifactUpdate')
          yield {
            payload:
              event.kind === 'statusUpdate'
                ? { $case: 'statusUpdate', value: event.data }
                : { $case: 'artifactUpdate', value: event.data },
          };
      }
      await following;
    } finally {
      queue.stop();
    }
  }
}
