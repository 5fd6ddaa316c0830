import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentCard, TaskState, type Part, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteAnswer } from '../../../a2a/remote-answer.js';
import {
  startAgentsTestServer,
  WRITER_AGENT,
  type AgentsTestServer,
} from '../testing/real-test-server.js';
import {
  finalState,
  followThenCancel,
  lastArtifactText,
  streamed,
  writerModel,
  userMessage,
  type Payload,
} from './testing/a2a-test-server.js';

let live: AgentsTestServer<'ann'>;

beforeAll(async () => {
  live = await startAgentsTestServer({
    prefix: 'cadre-a2a-serve-',
    agents: {
      greeter:
        'name: greeter\ndescription: Greets you.\npromptConfig:\n  systemPrompt: Greet, secretly.\n',
      writer: WRITER_AGENT,
    },
    users: ['ann'],
    run: { modelClient: writerModel() },
  });
});
afterAll(() => live.close());

/** The SDK's own client, from the agent's card, sending `bearer` (if any) on every call. */
async function client(agent: string, bearer = live.users.ann.token): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (bearer) headers.set('authorization', `Bearer ${bearer}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    }),
  );
  return factory.createFromUrl(`${live.server.url}/a2a/${agent}/.well-known/agent-card.json`, '');
}

type Content = NonNullable<Part['content']>;

/** A user message (on `task`, when given) of text or data parts. */
const request = (contents: Content[], task?: Task): SendMessageRequest => ({
  tenant: '',
  message: userMessage(
    contents.map((content) => ({
      content,
      metadata: undefined,
      filename: '',
      mediaType: content.$case === 'data' ? 'application/json' : 'text/plain',
    })),
    task,
  ),
  configuration: undefined,
  metadata: undefined,
});
const text = (value: string): Content => ({ $case: 'text', value });

const send = (c: Client, value: string, task?: Task) => c.sendMessage(request([text(value)], task));

const asTask = (reply: unknown): Task => {
  expect(reply).toHaveProperty('status');
  return reply as Task;
};

describe('Cadre agents served over A2A, driven by the SDK client (scripted)', () => {
  it('publishes a card per agent, and the default one at the well-known path, with nothing but name and description', async () => {
    const res = await fetch(`${live.server.url}/a2a/greeter/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const raw = await res.text();
    expect(raw).not.toContain('secretly');
    const card = AgentCard.fromJSON(JSON.parse(raw));
    expect(card.name).toBe('greeter');
    expect(card.description).toBe('Greets you.');
    expect(card.skills.map((skill) => [skill.id, skill.description])).toEqual([
      ['greeter', 'Greets you.'],
    ]);
    expect(card.supportedInterfaces[0]?.url).toBe(`${live.server.url}/a2a/greeter`);
    const home = await fetch(`${live.server.url}/.well-known/agent-card.json`);
    expect(home.status).toBe(200);
    const missing = await fetch(`${live.server.url}/a2a/nobody/.well-known/agent-card.json`);
    expect(missing.status).toBe(404);
  });

  it('SendMessage runs the agent and returns a completed task with the answer; GetTask reads the run', async () => {
    const c = await client('greeter');
    const task = asTask(await send(c, 'hi there'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(remoteAnswer(task)).toMatchObject({ kind: 'answer', text: 'Hello! You said: hi there' });
    const run = await live.service.getRun((await live.store.auth.ensureUser('ann')).id, task.id);
    expect(run?.run.agent).toBe('greeter');
    expect(run?.run.threadId).toBe(task.contextId);
    const again = await c.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(remoteAnswer(again)).toMatchObject({ text: 'Hello! You said: hi there' });
  });

  it('a run waiting for approval is an input-required task whose message previews the call', async () => {
    const c = await client('writer');
    const task = asTask(await send(c, 'write notes.txt'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const answer = remoteAnswer(task);
    expect(answer).toMatchObject({ kind: 'refused', state: 'input-required' });
    expect(answer.text).toContain('write_file');
    expect(answer.text).toContain('notes.txt');
    const again = await c.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(remoteAnswer(again).text).toContain('notes.txt');
    // Another agent's endpoint does not see the task.
    const other = await client('greeter');
    await expect(
      other.getTask({ tenant: '', id: task.id, historyLength: undefined }),
    ).rejects.toThrow();
  });

  it('refuses calls without a valid bearer token (the card stays public)', async () => {
    const anonymous = await client('greeter', '');
    await expect(send(anonymous, 'hi')).rejects.toThrow();
    const wrong = await client('greeter', 'not-a-token');
    await expect(send(wrong, 'hi')).rejects.toThrow();
    const res = await fetch(`${live.server.url}/a2a/greeter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }),
    });
    expect(res.status).toBe(401);
  });
});

describe('deciding, streaming and cancelling A2A tasks, driven by the SDK client (scripted)', () => {
  const annId = async () => (await live.store.auth.ensureUser('ann')).id;
  const decisions = async (runId: string) =>
    (await live.service.audit(await annId(), runId))
      .map((entry) => /(decided|rejected) by [^;,]*/.exec(entry.message)?.[0])
      .filter(Boolean);

  it('"approve" on the input-required task approves the call, the run goes on, and the trail names who decided', async () => {
    const c = await client('writer');
    const asked = asTask(await send(c, 'write approved.txt'));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const done = asTask(await send(c, 'Approve', asked));
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(remoteAnswer(done).text).toContain('Tool said:');
    expect(await readFile(join(live.dir, 'approved.txt'), 'utf8')).toBe('hi');
    expect(await decisions(asked.id)).toEqual(['decided by ann: approve_once']);
  });

  it('a data part {decision: "reject", approvalId} rejects that call; the run goes on without it', async () => {
    const c = await client('writer');
    const asked = asTask(await send(c, 'write rejected.txt'));
    const pending = (await live.service.pendingApprovals(await annId())).filter(
      (a) => a.runId === asked.id,
    );
    expect(pending).toHaveLength(1);
    const done = asTask(
      await c.sendMessage(
        request(
          [
            {
              $case: 'data',
              value: { decision: 'reject', approvalId: pending[0]?.approvalId, feedback: 'no' },
            },
          ],
          asked,
        ),
      ),
    );
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect(readFile(join(live.dir, 'rejected.txt'))).rejects.toThrow();
    expect(await decisions(asked.id)).toEqual(['rejected by ann']);
  });

  it('a message that is not a decision, or names no waiting approval, leaves the task waiting and says so', async () => {
    const c = await client('writer');
    const asked = asTask(await send(c, 'write undecided.txt'));
    const chat = asTask(await send(c, 'what is this?', asked));
    expect(chat.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(remoteAnswer(chat).text).toContain('not a decision');
    expect(remoteAnswer(chat).text).toContain('undecided.txt');
    const wrong = asTask(
      await c.sendMessage(
        request([{ $case: 'data', value: { decision: 'approve', approvalId: 'nope' } }], asked),
      ),
    );
    expect(wrong.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(remoteAnswer(wrong).text).toContain('No approval waiting matches nope');
    expect(await decisions(asked.id)).toEqual([]);
  });

  it('SendStreamingMessage streams the task, its progress and the answer artifact as the run goes', async () => {
    const c = await client('greeter');
    const events = await streamed(c.sendMessageStream(request([text('stream please')])));
    expect(events[0]?.$case).toBe('task');
    const kinds = events.map((e) => e.$case);
    expect(kinds.slice(1).every((k) => k === 'statusUpdate' || k === 'artifactUpdate')).toBe(true);
    expect(kinds).toContain('artifactUpdate');
    const last = events.findLast((e) => e.$case === 'artifactUpdate');
    expect(last?.$case === 'artifactUpdate' && last.value.lastChunk).toBe(true);
    expect(lastArtifactText(events)).toBe('Hello! You said: stream please');
    expect(finalState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a streamed run that needs approval ends the stream input-required; a streamed "approve" carries it on to the end', async () => {
    const c = await client('writer');
    const first = await streamed(c.sendMessageStream(request([text('write streamed.txt')])));
    expect(finalState(first)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const calling = first.find(
      (e) =>
        e.$case === 'statusUpdate' &&
        e.value.status?.state === TaskState.TASK_STATE_WORKING &&
        e.value.status.message !== undefined,
    );
    expect(calling?.$case === 'statusUpdate' && JSON.stringify(calling.value)).toContain(
      'Calling write_file',
    );
    const task = first[0]?.$case === 'task' ? first[0].value : undefined;
    expect(task).toBeDefined();
    const second = await streamed(c.sendMessageStream(request([text('approve')], task)));
    expect(second[0]?.$case).toBe('task');
    expect(finalState(second)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await readFile(join(live.dir, 'streamed.txt'), 'utf8')).toBe('hi');
  });

  it('CancelTask cancels a waiting run, refuses a finished one, and stops a running one', async () => {
    const c = await client('writer');
    const asked = asTask(await send(c, 'write never.txt'));
    const cancelled = await c.cancelTask({ tenant: '', id: asked.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const run = await live.service.getRun(await annId(), asked.id);
    expect(run?.run.status).toBe('cancelled');
    const again = await c.getTask({ tenant: '', id: asked.id, historyLength: undefined });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    const greeter = await client('greeter');
    const finished = asTask(await send(greeter, 'hello'));
    await expect(
      greeter.cancelTask({ tenant: '', id: finished.id, metadata: undefined }),
    ).rejects.toThrow();

    // A run thinking for a minute: cancel it while its stream is open; the stream ends cancelled.
    const stream = greeter.sendMessageStream(request([text('slow')]));
    const seen: Payload[] = [];
    let cancel: Promise<Task> | undefined;
    for await (const event of stream) {
      if (event.payload) seen.push(event.payload);
      if (!cancel && event.payload?.$case === 'task') {
        const id = event.payload.value.id;
        cancel = greeter.cancelTask({ tenant: '', id, metadata: undefined });
      }
    }
    expect((await cancel)?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(finalState(seen)).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('SubscribeToTask follows a run from the outside: the task, then its updates until it ends', async () => {
    const greeter = await client('greeter');
    const seen = await followThenCancel(
      greeter.sendMessageStream(request([text('slow')])),
      (id) => greeter.resubscribeTask({ tenant: '', id }),
      (id) => greeter.cancelTask({ tenant: '', id, metadata: undefined }),
    );
    expect(seen.task).toBeDefined();
    const id = seen.task?.id ?? '';
    expect(seen.snapshot).toBe('task');
    expect(seen.cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(finalState(seen.followed)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(finalState(seen.streamed)).toBe(TaskState.TASK_STATE_CANCELED);
    // A finished task is not subscribed to: GetTask reads it.
    await expect(streamed(greeter.resubscribeTask({ tenant: '', id }))).rejects.toThrow();
  });
});
