// Test-only: what the A2A route tests share: the scripted writer model, a raw JSON-RPC
// call, the 1.0 user message, and the reading of a streamed call.
import { randomUUID } from 'node:crypto';
import { Role, type Message, type Part, type StreamResponse, type Task } from '@a2a-js/sdk';
import { ScriptedModel, type ScriptedTurn } from '../../../../model/scripted-model.js';
import type { ModelRequest } from '../../../../model/types.js';

/** The first non-blank text the model was given: the prompt of the run. */
export const promptOf = (r: ModelRequest): string => {
  for (const part of r.messages.flatMap((m) => m.parts))
    if (part.kind === 'text' && part.text.trim()) return part.text;
  return '';
};

/** Whether the model is being given a tool's answer. */
export const answered = (r: ModelRequest): boolean =>
  r.messages.at(-1)?.parts.some((p) => p.kind === 'function_response') ?? false;

/**
 * "write <path>" asks to write a file (which needs approval) and then says
 * what the tool returned; "slow" thinks for a minute; anything else is greeted.
 */
export const writerModel = (): ScriptedModel =>
  new ScriptedModel((r): ScriptedTurn => {
    const prompt = promptOf(r);
    if (answered(r)) return { parts: [{ text: 'Tool said: {{toolResult}}' }] };
    if (prompt === 'slow') return { parts: [{ text: 'finally' }], delayMs: 60_000 };
    const path = /^write (\S+)/.exec(prompt)?.[1];
    if (path)
      return { parts: [{ functionCall: { name: 'write_file', args: { path, content: 'hi' } } }] };
    return { parts: [{ text: `Hello! You said: ${prompt}` }] };
  });

/** One raw JSON-RPC call to `endpoint`, as a client puts it on the wire (`bearer` when not empty). */
export const postJsonRpc = (
  endpoint: string,
  call: { id: number; method: string; params: unknown; bearer: string },
): Promise<Response> =>
  fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(call.bearer ? { authorization: `Bearer ${call.bearer}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: call.id, method: call.method, params: call.params }),
  });

/** The task an A2A 1.0 SendMessage answers with. */
export interface SentTask {
  id: string;
  contextId: string;
  status: { state: string };
}

/** One A2A 1.0 SendMessage of `text` to `endpoint` as `bearer` (on `task`, when given); a JSON-RPC error throws. */
export async function sendMessage(
  endpoint: string,
  bearer: string,
  text: string,
  task?: { id: string; contextId: string },
): Promise<SentTask> {
  const res = await postJsonRpc(endpoint, {
    id: 1,
    method: 'SendMessage',
    params: {
      message: {
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text }],
        ...(task ? { taskId: task.id, contextId: task.contextId } : {}),
      },
    },
    bearer,
  });
  const body = (await res.json()) as { error?: unknown; result?: { task: SentTask } };
  if (body.error !== undefined)
    throw new Error(`SendMessage failed: ${JSON.stringify(body.error)}`);
  return body.result?.task ?? { id: '', contextId: '', status: { state: '' } };
}

/** Every event of a streamed call, in order. */
export type Payload = NonNullable<StreamResponse['payload']>;
export async function streamed(events: AsyncIterable<StreamResponse>): Promise<Payload[]> {
  const seen: Payload[] = [];
  for await (const event of events) if (event.payload) seen.push(event.payload);
  return seen;
}

/** The state the last event of a stream leaves the task in. */
export const finalState = (events: Payload[]) => {
  const last = events.at(-1);
  return last?.$case === 'statusUpdate' ? last.value.status?.state : undefined;
};

/** The text of the last answer artifact a stream carried (false when it carried none). */
export const lastArtifactText = (events: Payload[]) => {
  const last = events.findLast((e) => e.$case === 'artifactUpdate');
  return (
    last?.$case === 'artifactUpdate' &&
    last.value.artifact?.parts[0]?.content?.$case === 'text' &&
    last.value.artifact.parts[0].content.value
  );
};

/**
 * Reads the task `stream` opens with, follows that task from the outside (`subscribe`),
 * then cancels it (`cancel`): the task, the first event the subscription gave, the
 * cancelled task, and the rest of the subscription and of the stream, each to its end.
 */
export async function followThenCancel(
  stream: AsyncGenerator<StreamResponse>,
  subscribe: (id: string) => AsyncGenerator<StreamResponse>,
  cancel: (id: string) => Promise<Task>,
): Promise<{
  task: Task | undefined;
  snapshot: Payload['$case'] | undefined;
  cancelled: Task;
  followed: Payload[];
  streamed: Payload[];
}> {
  const first = await stream.next();
  const task = first.value?.payload?.$case === 'task' ? first.value.payload.value : undefined;
  const subscription = subscribe(task?.id ?? '');
  const snapshot = await subscription.next();
  const rest = streamed({ [Symbol.asyncIterator]: () => subscription });
  const cancelled = await cancel(task?.id ?? '');
  return {
    task,
    snapshot: snapshot.value?.payload?.$case,
    cancelled,
    followed: await rest,
    streamed: await streamed({ [Symbol.asyncIterator]: () => stream }),
  };
}

/** A fresh user message of `parts`, on `task` when given (a new task otherwise). */
export const userMessage = (parts: Part[], task?: Task): Message => ({
  messageId: randomUUID(),
  contextId: task?.contextId ?? '',
  taskId: task?.id ?? '',
  role: Role.ROLE_USER,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
