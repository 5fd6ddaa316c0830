import { TaskState, type Task, type TaskStatus } from '@a2a-js/sdk';
import { AgentEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';
import type { CadreEvent } from '../../events/types.js';
import type { RunResponse } from '../../server/run-service-types.js';
import { lineForEvent } from '../../server/http/stream-lines.js';
import { agentMessage, answerArtifact, runTask, textPart } from './run-task.js';

/** What a run goes through, told to the SDK's event bus as A2A events. */
export interface TaskEvents {
  /** The run's ids are known: the task goes out (once), then `working`. */
  started(ids: { runId: string; threadId: string }): void;
  /** One stored event of the run: answer text is an artifact chunk, a tool call a `working` note. */
  event(event: CadreEvent): void;
  /** The run settled: the whole answer (when completed), then the final status. */
  settled(response: RunResponse): void;
}

/**
 * Publishes a run as one task's lifecycle: a `task` event first, then only
 * status and artifact updates, which is the order the SDK's streaming
 * handler requires. The bus stops a blocking call (or ends a stream) at a
 * final or `input-required` status.
 */
export function taskEvents(
  bus: ExecutionEventBus,
  /** `known`: the task already went out (a subscriber was sent it); only updates follow. */
  initial: 'submitted' | 'working' | { known: { runId: string; threadId: string } },
): TaskEvents {
  let ids = typeof initial === 'object' ? initial.known : undefined;
  let chunks = 0;
  const status = (state: TaskStatus) => {
    if (!ids) return;
    bus.publish(
      AgentEvent.statusUpdate({
        taskId: ids.runId,
        contextId: ids.threadId,
        status: state,
        metadata: undefined,
      }),
    );
  };
  const working = (text?: string) =>
    status({
      state: TaskState.TASK_STATE_WORKING,
      message: ids && text ? agentMessage(ids, text) : undefined,
      timestamp: new Date().toISOString(),
    });
  const started: TaskEvents['started'] = (next) => {
    if (ids) return;
    ids = next;
    const task: Task = runTask({
      ...next,
      status: initial === 'submitted' ? 'queued' : 'running',
      summary: '',
      approvals: [],
    });
    bus.publish(AgentEvent.task(task));
    if (initial === 'submitted') working();
  };
  return {
    started,
    event(event) {
      if (!ids) return;
      const line = lineForEvent(event);
      if (line.type === 'delta' && line.delta) {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId: ids.runId,
            contextId: ids.threadId,
            artifact: { ...answerArtifact(''), parts: [textPart(line.delta)] },
            append: chunks++ > 0,
            lastChunk: false,
            metadata: undefined,
          }),
        );
      } else if (line.type === 'tool_call') {
        working(`Calling ${line.tool}`);
      }
    },
    settled(response) {
      started({ runId: response.runId, threadId: response.threadId });
      const task = runTask(response);
      if (task.status?.state === TaskState.TASK_STATE_COMPLETED && ids)
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId: ids.runId,
            contextId: ids.threadId,
            // The whole answer replaces the streamed chunks (text before a tool call is not the answer).
            artifact: answerArtifact(response.summary),
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
      if (task.status) status(task.status);
    },
  };
}
