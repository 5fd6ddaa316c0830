import type { Message, Part, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';

/** What a remote agent's reply comes to: its text, or why it has none. */
export type RemoteAnswer =
  | { kind: 'answer'; text: string; taskId?: string }
  | { kind: 'refused'; state: string; text: string; taskId: string };

const partText = (part: Part): string => {
  const content = part.content;
  if (!content) return '';
  switch (content.$case) {
    case 'text':
      return content.value;
    case 'data':
      return JSON.stringify(content.value);
    case 'url':
      return content.value;
    case 'raw':
      return part.filename ? `[file ${part.filename}]` : '[file]';
    default:
      content satisfies never;
      return '';
  }
};

export const messageText = (message: Message | undefined): string =>
  (message?.parts ?? []).map(partText).filter(Boolean).join('\n');

const isTask = (reply: Message | Task): reply is Task => 'status' in reply && 'artifacts' in reply;

/**
 * A `SendMessage` result as text: a direct message, or a task's artifacts
 * (its status message when it has none). A task that stopped short of
 * `completed` (failed, rejected, waiting for input or auth) is refused with
 * its state, so the calling agent hears why rather than an empty answer.
 */
export function remoteAnswer(reply: Message | Task): RemoteAnswer {
  if (!isTask(reply)) return { kind: 'answer', text: messageText(reply) };
  const artifacts = reply.artifacts
    .map((artifact) => artifact.parts.map(partText).filter(Boolean).join('\n'))
    .filter(Boolean)
    .join('\n\n');
  const status = messageText(reply.status?.message);
  const state = reply.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  if (state === TaskState.TASK_STATE_COMPLETED)
    return { kind: 'answer', text: artifacts || status, taskId: reply.id };
  return {
    kind: 'refused',
    state: stateName(state),
    text: status || artifacts,
    taskId: reply.id,
  };
}

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`, as people read it. */
const stateName = (state: TaskState): string =>
  (TaskState[state] ?? String(state))
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
