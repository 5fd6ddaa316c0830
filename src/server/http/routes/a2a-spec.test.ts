import { AgentCard, Role, TaskState, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRequest, RunService } from '../../run-service-types.js';
import {
  startAgentsTestServer,
  WRITER_AGENT,
  type AgentsTestServer,
} from '../testing/real-test-server.js';
import { userMessage, writerModel } from './testing/a2a-test-server.js';

let live: AgentsTestServer<'ann' | 'bob'>;
/** What the A2A endpoint asked the run service to run, in order. */
const runRequests: RunRequest[] = [];

beforeAll(async () => {
  live = await startAgentsTestServer({
    prefix: 'cadre-a2a-spec-',
    agents: {
      greeter: 'name: greeter\ndescription: Greets you.\npromptConfig:\n  systemPrompt: Greet.\n',
      titler:
        'name: titler\ndescription: Titles a topic.\nexamples: [Title about owls]\ninputConfig:\n  inputs:\n    topic: { type: string, description: The subject, required: true }\npromptConfig:\n  systemPrompt: Title it.\n  query: Title about ${topic}\n',
      writer: WRITER_AGENT,
    },
    users: ['ann', 'bob'],
    run: { modelClient: writerModel() },
    serve: (service): RunService => ({
      ...service,
      run: (request, hooks) => {
        runRequests.push(request);
        return service.run(request, hooks);
      },
    }),
  });
});
afterAll(() => live.close());

const endpoint = (agent: string) => `${live.server.url}/a2a/${agent}`;

/** One raw POST to an agent's endpoint as `user`, the body exactly as given. */
async function post(
  agent: string,
  body: string,
  options: { user?: 'ann' | 'bob'; contentType?: string } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(endpoint(agent), {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      authorization: `Bearer ${live.users[options.user ?? 'ann'].token}`,
    },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const rpc = (method: string, params: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

const errorCode = (json: Record<string, unknown>): unknown =>
  (json.error as { code?: unknown } | undefined)?.code;

/** The SDK's own client as `user`, from the agent's card. */
async function client(agent: string, user: 'ann' | 'bob' = 'ann'): Promise<Client> {
  const token = live.users[user].token;
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    }),
  ).createFromUrl(`${endpoint(agent)}/.well-known/agent-card.json`, '');
}

const sendText = async (c: Client, text: string): Promise<Task> => {
  const reply = await c.sendMessage({
    tenant: '',
    message: userMessage([
      { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' },
    ]),
    configuration: undefined,
    metadata: undefined,
  });
  expect(reply).toHaveProperty('status');
  return reply as Task;
};

describe('A2A JSON-RPC error codes as the spec gives them (raw requests on the wire)', () => {
  it('a body that is not JSON is -32700 with HTTP 200 and a null id', async () => {
    const { status, json } = await post('greeter', '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(status).toBe(200);
    expect(json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('JSON that is not a request is -32600 (a batch, a string, no jsonrpc, no method, a fractional id)', async () => {
    for (const body of [
      '[]',
      '"SendMessage"',
      JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'GetTask', params: {} }),
      JSON.stringify({ jsonrpc: '2.0', id: 8, params: {} }),
      JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'GetTask', params: {} }),
    ]) {
      const { status, json } = await post('greeter', body);
      expect(status, body).toBe(200);
      expect(errorCode(json), body).toBe(-32600);
    }
    // The id is echoed when it is one.
    const { json } = await post('greeter', JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'x' }));
    expect(json.id).toBe(7);
  });

  it('an unknown method is -32601, a body sent as text/plain -32005, a task nobody has -32001', async () => {
    expect(errorCode((await post('greeter', rpc('NoSuchMethod', {}))).json)).toBe(-32601);
    const plain = await post('greeter', rpc('GetTask', { id: 'x' }), { contentType: 'text/plain' });
    expect(plain.status).toBe(200);
    expect(errorCode(plain.json)).toBe(-32005);
    expect(errorCode((await post('greeter', rpc('GetTask', { id: 'nope' }))).json)).toBe(-32001);
    expect(errorCode((await post('greeter', rpc('CancelTask', { id: 'nope' }))).json)).toBe(-32001);
  });

  it('cancelling a task already cancelled, or already completed, is -32002 TaskNotCancelable', async () => {
    const writer = await client('writer');
    const waiting = await sendText(writer, 'write never-cancel-twice.txt');
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const first = await post('writer', rpc('CancelTask', { id: waiting.id }));
    expect(first.json).toMatchObject({ result: { status: { state: 'TASK_STATE_CANCELED' } } });
    const second = await post('writer', rpc('CancelTask', { id: waiting.id }));
    expect(second.status).toBe(200);
    expect(errorCode(second.json)).toBe(-32002);
    const done = await sendText(await client('greeter'), 'hello');
    expect(errorCode((await post('greeter', rpc('CancelTask', { id: done.id }))).json)).toBe(
      -32002,
    );
  });
});

describe('GetTask history, ListTasks per user, and the card skill (SDK client, scripted model)', () => {
  it('GetTask returns the run’s messages as history, the last historyLength of them when asked', async () => {
    const c = await client('greeter');
    const task = await sendText(c, 'remember me');
    const full = await c.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(full.history.map((m) => [m.role, m.parts[0]?.content?.value])).toEqual([
      [Role.ROLE_USER, 'remember me'],
      [Role.ROLE_AGENT, 'Hello! You said: remember me'],
    ]);
    expect(full.history.every((m) => m.taskId === task.id && m.contextId === task.contextId)).toBe(
      true,
    );
    const last = await c.getTask({ tenant: '', id: task.id, historyLength: 1 });
    expect(last.history.map((m) => m.role)).toEqual([Role.ROLE_AGENT]);
    const none = await c.getTask({ tenant: '', id: task.id, historyLength: 0 });
    expect(none.history).toEqual([]);
  });

  it('ListTasks lists the caller’s tasks of that agent only, newest first, a page at a time', async () => {
    const ann = await client('greeter', 'ann');
    const bob = await client('greeter', 'bob');
    const a1 = await sendText(ann, 'ann one');
    const a2 = await sendText(ann, 'ann two');
    const b1 = await sendText(bob, 'bob one');
    await sendText(await client('writer', 'ann'), 'write listed.txt');

    const list = (c: Client, pageSize?: number, pageToken = '') =>
      c.listTasks({
        tenant: '',
        contextId: '',
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize,
        pageToken,
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      });
    const annIds = (await list(ann)).tasks.map((t) => t.id);
    expect(annIds.slice(0, 2)).toEqual([a2.id, a1.id]);
    // Bob's task is not in Ann's list, nor is her writer task in the greeter's.
    expect(annIds).not.toContain(b1.id);
    const bobList = await list(bob);
    expect(bobList.tasks.map((t) => t.id)).toEqual([b1.id]);
    expect(bobList.totalSize).toBe(1);

    const first = await list(ann, 1);
    expect(first.tasks.map((t) => t.id)).toEqual([a2.id]);
    expect(first.nextPageToken).not.toBe('');
    const second = await list(ann, 1, first.nextPageToken);
    expect(second.tasks.map((t) => t.id)).toEqual([a1.id]);
    // Bob cannot read Ann's task by id either.
    await expect(bob.getTask({ tenant: '', id: a1.id, historyLength: undefined })).rejects.toThrow(
      /not found/i,
    );
  });

  it('the card’s skill is the agent: its description, examples and inputs; a data part is the inputs', async () => {
    const res = await fetch(`${endpoint('titler')}/.well-known/agent-card.json`);
    const card = AgentCard.fromJSON(await res.json());
    const skill = card.skills[0];
    expect(skill?.id).toBe('titler');
    expect(skill?.examples).toEqual(['Title about owls']);
    expect(skill?.description).toContain('Titles a topic.');
    expect(skill?.description).toContain('topic (string, required): The subject');
    expect(skill?.inputModes).toContain('application/json');

    const c = await client('titler');
    const reply = await c.sendMessage({
      tenant: '',
      message: userMessage([
        {
          content: { $case: 'data', value: { topic: 'owls' } },
          metadata: undefined,
          filename: '',
          mediaType: 'application/json',
        },
      ]),
      configuration: undefined,
      metadata: undefined,
    });
    expect((reply as Task).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(runRequests.at(-1)).toMatchObject({ agent: 'titler', inputs: { topic: 'owls' } });
  });

  it('createFromUrl without a trailing slash is not answered with another agent’s card when several are served', async () => {
    const factory = new ClientFactory();
    await expect(factory.createFromUrl(endpoint('writer'))).rejects.toThrow(/404/);
    // With the slash, the SDK finds the agent's own card.
    const c = await factory.createFromUrl(`${endpoint('writer')}/`);
    expect(c).toBeDefined();
  });
});
