import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { RunService, RunView } from '../../server/run-service-types.js';
import { callSignal, callUser } from './run-executor.js';
import { viewTask } from './run-task-load.js';

const DEFAULT_PAGE_SIZE = 50;

/** The page token is where the page starts in the list (newest first); anything else is refused. */
function offsetOf(token: string): number {
  if (!token) return 0;
  if (!/^\d{1,9}$/.test(token))
    throw new RequestMalformedError('pageToken is not one this server gave.');
  return Number(token);
}

const matches = (task: Task, params: ListTasksRequest): boolean => {
  const state = task.status?.state;
  if (params.status !== TaskState.TASK_STATE_UNSPECIFIED && state !== params.status) return false;
  const after = params.statusTimestampAfter;
  if (after && Date.parse(task.status?.timestamp ?? '') < Date.parse(after)) return false;
  return true;
};

/**
 * ListTasks: the caller's runs of this agent, newest first, each with its
 * messages as history, filtered by context (thread), state and time, a
 * page at a time. Another user's runs are never read: everything comes
 * through the run service as the caller. The whole list is read for each
 * page (a user's runs of one agent), so the total is exact.
 */
export async function listRunTasks(
  service: RunService,
  agent: string,
  params: ListTasksRequest,
  context: ServerCallContext,
): Promise<ListTasksResponse> {
  const userId = callUser(context);
  const signal = callSignal(context);
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  const offset = offsetOf(params.pageToken);
  const threads = (await service.listThreads(userId, signal)).filter(
    (thread) =>
      (!params.contextId || thread.id === params.contextId) &&
      (thread.agent === undefined || thread.agent === agent),
  );
  // Read once for the page, not once per run that waits.
  const pending = await service.pendingApprovals(userId, signal);
  const found: { view: RunView; task: Task }[] = [];
  for (const thread of threads) {
    const view = await service.getThread(userId, thread.id, signal);
    if (!view) continue;
    const runIds = [...new Set(view.messages.flatMap((m) => (m.runId ? [m.runId] : [])))];
    for (const runId of runIds) {
      const run = await service.getRun(userId, runId, signal);
      if (!run || run.run.agent !== agent) continue;
      const task = await viewTask(service, run, context, { history: view.messages, pending });
      if (matches(task, params)) found.push({ view: run, task });
    }
  }
  found.sort(
    (a, b) =>
      b.view.run.createdAt.localeCompare(a.view.run.createdAt) ||
      b.view.run.id.localeCompare(a.view.run.id),
  );
  const page = found.slice(offset, offset + pageSize).map((entry) => entry.task);
  const next = offset + pageSize;
  return {
    tasks: page,
    nextPageToken: next < found.length ? String(next) : '',
    pageSize,
    totalSize: found.length,
  };
}
