import { Role, type Message, type Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { ApprovalView, RunService, RunView } from '../../server/run-service-types.js';
import type { ThreadMessage } from '../../store/records.js';
import { callSignal, callUser } from './run-executor.js';
import { runTask, textPart } from './run-task.js';

/** A thread message of the run as an A2A message (system notes are not part of the conversation). */
const historyMessage = (message: ThreadMessage, runId: string): Message[] =>
  message.role === 'system'
    ? []
    : [
        {
          messageId: message.id,
          contextId: message.threadId,
          taskId: runId,
          role: message.role === 'user' ? Role.ROLE_USER : Role.ROLE_AGENT,
          parts: [textPart(message.content)],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
      ];

/** The task's history: the run's own messages in its thread (the prompt, the answer), oldest first. */
const runHistory = (messages: readonly ThreadMessage[], runId: string): Message[] =>
  messages.filter((m) => m.runId === runId).flatMap((m) => historyMessage(m, runId));

export interface LoadOptions {
  /** Read the run's messages too (GetTask, ListTasks); otherwise the history is empty. */
  history?: boolean | readonly ThreadMessage[];
  /** The caller's pending approvals, when already read (a list of tasks reads them once). */
  pending?: readonly ApprovalView[];
}

/** The caller's run of `agent` as a task (another user's or another agent's is not there). */
export async function loadRunTask(
  service: RunService,
  agent: string,
  taskId: string,
  context: ServerCallContext,
  options: LoadOptions = {},
): Promise<Task | undefined> {
  const userId = callUser(context);
  const signal = callSignal(context);
  const view = await service.getRun(userId, taskId, signal).catch(() => undefined);
  if (!view || view.run.agent !== agent) return undefined;
  return viewTask(service, view, context, options);
}

/** A run already read, as its task. */
export async function viewTask(
  service: RunService,
  view: RunView,
  context: ServerCallContext,
  options: LoadOptions = {},
): Promise<Task> {
  const userId = callUser(context);
  const signal = callSignal(context);
  const approvals =
    view.run.status === 'awaiting_confirmation'
      ? (options.pending ?? (await service.pendingApprovals(userId, signal))).filter(
          (a) => a.runId === view.run.id,
        )
      : [];
  const messages =
    options.history === true
      ? ((await service.getThread(userId, view.run.threadId, signal))?.messages ?? [])
      : options.history || [];
  return {
    ...runTask({
      runId: view.run.id,
      threadId: view.run.threadId,
      status: view.run.status,
      summary: view.run.summary,
      approvals,
      updatedAt: view.run.updatedAt,
    }),
    history: runHistory(messages, view.run.id),
  };
}
