import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Artifact, type Message, type Part, type Task } from '@a2a-js/sdk';
import type { RunStatus } from '../../store/types.js';
import type { ApprovalView } from '../../server/run-service-types.js';
import { escapeInvisible } from '../../util/visible-text.js';

/** What a task is made from: a run as the run service reports it. */
export interface RunState {
  runId: string;
  threadId: string;
  status: RunStatus | 'running';
  summary: string;
  /** The run's pending approvals (their previews become the task's question). */
  approvals: ApprovalView[];
  updatedAt?: string;
}

export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

/** The agent speaking on a task; each message has its own id (the SDK keeps one of each in the history). */
export const agentMessage = (run: Pick<RunState, 'runId' | 'threadId'>, text: string): Message => ({
  messageId: randomUUID(),
  contextId: run.threadId,
  taskId: run.runId,
  role: Role.ROLE_AGENT,
  parts: [textPart(text)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/** The A2A state of a run: an approval waiting is the client's turn to answer (`input-required`). */
function taskState(status: RunState['status']): TaskState {
  switch (status) {
    case 'completed':
      return TaskState.TASK_STATE_COMPLETED;
    case 'awaiting_confirmation':
      return TaskState.TASK_STATE_INPUT_REQUIRED;
    case 'failed':
      return TaskState.TASK_STATE_FAILED;
    case 'cancelled':
      return TaskState.TASK_STATE_CANCELED;
    case 'queued':
      return TaskState.TASK_STATE_SUBMITTED;
    case 'planning':
    case 'executing':
    case 'running':
      return TaskState.TASK_STATE_WORKING;
    default:
      status satisfies never;
      return TaskState.TASK_STATE_UNSPECIFIED;
  }
}

const approvalText = (approvals: ApprovalView[]): string =>
  [
    'Waiting for approval. Answer on this task with "approve" or "reject" (all of them), or a data part' +
      ' {"decision": "approve" | "reject", "approvalId": "…"} for one; or decide in Cadre' +
      ' (its web page, or POST /api/agent/approvals/resolve):',
    // A subagent's call names who asks: `- office › team › mailer › gmail_send: Send …`.
    ...approvals.map(
      (a) =>
        `- ${escapeInvisible((a.path ?? [a.tool]).join(' › '))}: ${escapeInvisible(a.preview)} (approval ${a.approvalId})`,
    ),
  ].join('\n');

/** The finished answer, as the `answer` artifact (whole, not a chunk). */
export const answerArtifact = (text: string): Artifact => ({
  artifactId: 'answer',
  name: 'answer',
  description: '',
  parts: [textPart(text)],
  metadata: undefined,
  extensions: [],
});

/**
 * A run as an A2A task: the task id is the run id and the context id its
 * thread, so GetTask reads the run. A finished answer is the `answer`
 * artifact; a run waiting for approval says what it wants to do in its
 * status message; a failed one says why.
 */
export function runTask(run: RunState): Task {
  const state = taskState(run.status);
  const done = state === TaskState.TASK_STATE_COMPLETED;
  const message =
    state === TaskState.TASK_STATE_INPUT_REQUIRED
      ? agentMessage(run, approvalText(run.approvals))
      : !done && run.summary
        ? agentMessage(run, run.summary)
        : undefined;
  return {
    id: run.runId,
    contextId: run.threadId,
    status: { state, message, timestamp: run.updatedAt ?? new Date().toISOString() },
    artifacts: done ? [answerArtifact(run.summary)] : [],
    history: [],
    metadata: undefined,
  };
}
