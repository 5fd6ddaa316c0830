import type { Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import type { RunService } from '../../server/run-service-types.js';
import { messageText } from '../remote-answer.js';
import { runTask } from './run-task.js';

/** The request's signal, carried in the call context's state (the SDK's bag for transport data). */
export const SIGNAL_KEY = 'cadre.signal';

export const callUser = (context: ServerCallContext): string => context.user?.userName ?? '';
export const callSignal = (context: ServerCallContext): AbortSignal | undefined => {
  const signal = context.state.get(SIGNAL_KEY);
  return signal instanceof AbortSignal ? signal : undefined;
};

/**
 * The task, then its status as an update: the SDK's event queue ends a
 * blocking call on a status update (a task event alone leaves an
 * input-required call waiting on a bus that is kept open).
 */
function publish(bus: ExecutionEventBus, task: Task): void {
  bus.publish(AgentEvent.task(task));
  bus.publish(
    AgentEvent.statusUpdate({
      taskId: task.id,
      contextId: task.contextId,
      status: task.status,
      metadata: undefined,
    }),
  );
}

/**
 * An A2A message starts a run of `agent` through the run service (stored,
 * policed and audited like any other run) and publishes the run as the task.
 * A context id naming one of the caller's threads continues it. A message to
 * a task that already exists gets the run as it stands: approvals are
 * decided in Cadre, not over A2A.
 */
export function runExecutor(service: RunService, agent: string): AgentExecutor {
  return {
    execute: async (request, bus) => {
      if (request.task) {
        publish(bus, request.task);
        return;
      }
      const userId = callUser(request.context);
      const signal = callSignal(request.context);
      const thread = await service
        .getThread(userId, request.contextId, signal)
        .catch(() => undefined);
      const response = await service.run(
        {
          userId,
          agent,
          prompt: messageText(request.userMessage),
          ...(thread ? { threadId: thread.thread.id } : {}),
        },
        // Detaches only: a caller that leaves does not stop the run.
        signal ? { signal } : {},
      );
      publish(bus, runTask(response));
    },
    // Cancelling goes through Cadre (`cadre cancel`, /api); the card offers no more.
    cancelTask: () => Promise.resolve(),
  };
}
