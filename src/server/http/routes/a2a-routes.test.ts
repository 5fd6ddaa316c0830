import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentCard, Role, TaskState, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteAnswer } from '../../../a2a/remote-answer.js';
import { ScriptedModel, type ScriptedTurn } from '../../../model/scripted-model.js';
import type { ModelRequest } from '../../../model/types.js';
import { openStore } from '../../../store/open-store.js';
import type { Store } from '../../../store/types.js';
import { createRunService } from '../../core/create-run-service.js';
import type { RunService } from '../../run-service-types.js';
import { startTestServer, type TestServer } from '../test-support.js';

let dir: string;
let store: Store;
let service: RunService;
let server: TestServer;
let token = '';

const promptOf = (r: ModelRequest): string => {
  for (const part of r.messages.flatMap((m) => m.parts))
    if (part.kind === 'text' && part.text.trim()) return part.text;
  return '';
};

/** "write <path>" asks to write a file (which needs approval); anything else is greeted. */
const model = new ScriptedModel((r): ScriptedTurn => {
  const prompt = promptOf(r);
  const path = /^write (\S+)/.exec(prompt)?.[1];
  if (path)
    return { parts: [{ functionCall: { name: 'write_file', args: { path, content: 'hi' } } }] };
  return { parts: [{ text: `Hello! You said: ${prompt}` }] };
});

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-a2a-serve-')));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents/greeter.yaml'),
    'name: greeter\ndescription: Greets you.\npromptConfig:\n  systemPrompt: Greet, secretly.\n',
  );
  await writeFile(
    join(dir, 'agents/writer.yaml'),
    'name: writer\ndescription: Writes files.\ntoolConfig:\n  tools: [write_file]\npromptConfig:\n  systemPrompt: Write.\n',
  );
  store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  service = await createRunService({ store, cwd: dir, env: { HOME: dir }, modelClient: model });
  const user = await store.auth.ensureUser('ann');
  token = (await store.auth.createToken(user.id)).token;
  server = await startTestServer(service, { store });
});
afterAll(async () => {
  await server.close();
  await service.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** The SDK's own client, from the agent's card, sending `bearer` (if any) on every call. */
async function client(agent: string, bearer = token): Promise<Client> {
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
  return factory.createFromUrl(`${server.url}/a2a/${agent}/.well-known/agent-card.json`, '');
}

const send = (c: Client, text: string) =>
  c.sendMessage({
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text', value: text },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  });

const asTask = (reply: unknown): Task => {
  expect(reply).toHaveProperty('status');
  return reply as Task;
};

describe('Cadre agents served over A2A, driven by the SDK client (scripted)', () => {
  it('publishes a card per agent, and the default one at the well-known path, with nothing but name and description', async () => {
    const res = await fetch(`${server.url}/a2a/greeter/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const raw = await res.text();
    expect(raw).not.toContain('secretly');
    const card = AgentCard.fromJSON(JSON.parse(raw));
    expect(card.name).toBe('greeter');
    expect(card.description).toBe('Greets you.');
    expect(card.skills).toEqual([]);
    expect(card.supportedInterfaces[0]?.url).toBe(`${server.url}/a2a/greeter`);
    const home = await fetch(`${server.url}/.well-known/agent-card.json`);
    expect(home.status).toBe(200);
    const missing = await fetch(`${server.url}/a2a/nobody/.well-known/agent-card.json`);
    expect(missing.status).toBe(404);
  });

  it('SendMessage runs the agent and returns a completed task with the answer; GetTask reads the run', async () => {
    const c = await client('greeter');
    const task = asTask(await send(c, 'hi there'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(remoteAnswer(task)).toMatchObject({ kind: 'answer', text: 'Hello! You said: hi there' });
    const run = await service.getRun((await store.auth.ensureUser('ann')).id, task.id);
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
    const res = await fetch(`${server.url}/a2a/greeter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }),
    });
    expect(res.status).toBe(401);
  });
});
