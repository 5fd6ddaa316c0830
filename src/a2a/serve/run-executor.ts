import { TaskState, type Task, type TaskStatus } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import type { TraceCarrier } from '../../contracts/trace-carrier.js';
import { ConflictError } from '../../errors/cadre-error.js';
import type { RunHooks, RunResponse, RunService } from '../../server/run-service-types.js';
import { messageText } from '../remote-answer.js';
import { messageInputs } from './message-inputs.js';
import { taskDecision, type TaskDecision } from './task-decision.js';
import { agentMessage } from './run-task.js';
import { taskEvents, type TaskEvents } from './task-events.js';

/** The request's signal and the caller's display name, carried in the call context's state (the SDK's bag for transport data). */
export const SIGNAL_KEY = 'cadre.signal';
export const USER_NAME_KEY = 'cadre.userName';
/** The request's W3C trace context, when it carried one. */
export const TRACE_KEY = 'cadre.trace';

export const callUser = (context: ServerCallContext): string => context.user?.userName ?? '';
export const callSignal = (context: ServerCallContext): AbortSignal | undefined => {
  const signal = context.state.get(SIGNAL_KEY);
  return signal instanceof AbortSignal ? signal : undefined;
};
const callTrace = (context: ServerCallContext): TraceCarrier | undefined => {
  const trace = context.state.get(TRACE_KEY) as TraceCarrier | undefined;
  return trace && typeof trace.traceparent === 'string' ? trace : undefined;
};
const callUserName = (context: ServerCallContext): string | undefined => {
  const name = context.state.get(USER_NAME_KEY);
  return typeof name === 'string' && name ? name : undefined;
};

const hooksFor = (events: TaskEvents, signal: AbortSignal | undefined): RunHooks => ({
  onStarted: (ids) => events.started(ids),
  onEvent: (event) => events.event(event),
  // Detaches only: a caller that leaves does not stop the run.
  ...(signal ? { signal } : {}),
});

/**
 * An A2A message starts a run of `agent` through the run service (stored,
 * policed and audited like any other run) and publishes the run as the task,
 * event by event, so streaming callers see it progress. A context id naming
 * one of the caller's threads continues it. A message on a task waiting for
 * approval that says approve or reject (see task-decision.ts) decides it
 * through the same path as the resolve route, and the run goes on.
 */
export function runExecutor(
  service: RunService,
  agent: string,
  takesInputs = false,
): AgentExecutor {
  return {
    execute: async (request, bus) => {
      if (request.task) return followUp(service, request, bus);
      const userId = callUser(request.context);
      const signal = callSignal(request.context);
      const thread = await service
        .getThread(userId, request.contextId, signal)
        .catch(() => undefined);
      const events = taskEvents(bus, 'submitted');
      const inputs = takesInputs ? messageInputs(request.userMessage) : undefined;
      const trace = callTrace(request.context);
      const response = await service.run(
        {
          ...(trace ? { trace } : {}),
          userId,
          agent,
          prompt: messageText(request.userMessage),
          ...(inputs ? { inputs } : {}),
          ...(thread ? { threadId: thread.thread.id } : {}),
        },
        hooksFor(events, signal),
      );
      events.settled(response);
    },
    // Cancelling is the request handler's (run-request-handler.ts): it needs the caller, which this is not given.
    cancelTask: () => Promise.resolve(),
  };
}

/** A message on an existing task: a decision when one is waiting for it, else the task as it stands. */
async function followUp(
  service: RunService,
  request: RequestContext,
  bus: ExecutionEventBus,
): Promise<void> {
  const task = request.task;
  if (!task) return;
  const ids = { runId: task.id, threadId: task.contextId };
  const decision = taskDecision(request.userMessage);
  const asking = task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
  const chosen = decision && asking ? await waiting(service, request, decision) : undefined;
  if (!decision || !chosen || chosen.approvalIds.length === 0) {
    // Not a decision, or none waiting matches it: the task as it stands, saying so.
    const note = !asking
      ? undefined
      : decision
        ? `No approval waiting matches ${decision.approvalId ?? decision.callId ?? 'that'}.`
        : 'That is not a decision.';
    republish(bus, task, note);
    return;
  }
  const events = taskEvents(bus, 'working');
  events.started(ids);
  const response = await decide(service, request, decision, chosen, events);
  if (response) events.settled(response);
}

/**
 * Decides the chosen approvals one by one, as the resolve route would: the
 * last of a batch resumes the run and waits for it. One decided by someone
 * else meanwhile (the page, another message) is taken as already decided:
 * the rest still are, and when their decision was the one completing the
 * batch, the run resumed on their request, so it is followed from here.
 */
async function decide(
  service: RunService,
  request: RequestContext,
  decision: TaskDecision,
  chosen: Waiting,
  events: TaskEvents,
): Promise<RunResponse | undefined> {
  const userId = callUser(request.context);
  const userName = callUserName(request.context);
  const signal = callSignal(request.context);
  // The last event passed on, so following the run afterwards repeats none.
  let after = chosen.eventSeq;
  const hooks = hooksFor(
    {
      ...events,
      event: (event) => {
        after = Math.max(after, event.seq);
        events.event(event);
      },
    },
    signal,
  );
  let response: RunResponse | undefined;
  let raced = false;
  for (const approvalId of chosen.approvalIds) {
    try {
      response = await service.resolveApproval(
        {
          userId,
          ...(userName ? { userName } : {}),
          approvalId,
          decision: decision.decision,
          ...(decision.feedback ? { feedback: decision.feedback } : {}),
        },
        hooks,
      );
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      raced = true;
    }
  }
  if (!raced) return response;
  return (await service.followRun(userId, request.taskId, after, hooks)) ?? response;
}

/**
 * The task, then its status as an update (with `note` before its message):
 * the SDK's event queue ends a blocking call on a status update, not on a
 * task event.
 */
function republish(bus: ExecutionEventBus, task: Task, note?: string): void {
  bus.publish(AgentEvent.task(task));
  const status: TaskStatus = task.status ?? {
    state: TaskState.TASK_STATE_UNSPECIFIED,
    message: undefined,
    timestamp: new Date().toISOString(),
  };
  const text = [note, messageText(status.message)].filter(Boolean).join('\n');
  bus.publish(
    AgentEvent.statusUpdate({
      taskId: task.id,
      contextId: task.contextId,
      status: note
        ? {
            ...status,
            message: agentMessage({ runId: task.id, threadId: task.contextId }, text),
          }
        : status,
      metadata: undefined,
    }),
  );
}

/** What a decision on a task covers: the pending approvals it names (or all), and the run's last event then. */
interface Waiting {
  approvalIds: string[];
  eventSeq: number;
}

/** The pending approvals of the task's run the decision covers: the one it names, or all of them. */
async function waiting(
  service: RunService,
  request: RequestContext,
  decision: TaskDecision,
): Promise<Waiting> {
  const view = await service.getRun(
    callUser(request.context),
    request.taskId,
    callSignal(request.context),
  );
  return {
    approvalIds: (view?.approvals ?? [])
      .filter((a) => a.status === 'pending')
      .filter((a) => !decision.approvalId || a.id === decision.approvalId)
      .filter((a) => !decision.callId || a.callId === decision.callId)
      .map((a) => a.id),
    eventSeq: view?.run.eventSeq ?? 0,
  };
}
