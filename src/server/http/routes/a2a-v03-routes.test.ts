import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentCard, TaskState, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import {
  isLegacyAgentCard,
  LegacyJsonRpcTransport,
  parseLegacyAgentCard,
} from '@a2a-js/sdk/compat/v0_3/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAgentsTestServer,
  WRITER_AGENT,
  type AgentsTestServer,
} from '../testing/real-test-server.js';
import {
  finalState,
  followThenCancel,
  lastArtifactText,
  postJsonRpc,
  streamed,
  userMessage,
  writerModel,
} from './testing/a2a-test-server.js';

let live: AgentsTestServer<'ann'>;

beforeAll(async () => {
  live = await startAgentsTestServer({
    prefix: 'cadre-a2a-v03-',
    agents: {
      greeter: 'name: greeter\ndescription: Greets you.\npromptConfig:\n  systemPrompt: Greet.\n',
      writer: WRITER_AGENT,
    },
    users: ['ann'],
    run: { modelClient: writerModel() },
  });
});
afterAll(() => live.close());

const endpoint = (agent: string) => `${live.server.url}/a2a/${agent}`;

/** A raw v0.3 JSON-RPC call, as a v0.3 client puts it on the wire. */
async function rpc(
  agent: string,
  method: string,
  params: unknown,
  bearer = live.users.ann.token,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await postJsonRpc(endpoint(agent), { id: 7, method, params, bearer });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A v0.3 user message: `kind` discriminators, lower-case role. */
const v03Message = (text: string, task?: { id: string; contextId: string }) => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...(task ? { taskId: task.id, contextId: task.contextId } : {}),
});

type WireTask = {
  kind: string;
  id: string;
  contextId: string;
  status: { state: string; message?: { parts: { kind: string; text?: string }[] } };
  artifacts?: { parts: { kind: string; text?: string }[] }[];
};
const resultTask = (body: Record<string, unknown>): WireTask => {
  expect(body.error).toBeUndefined();
  return body.result as WireTask;
};

/** The SDK's own v0.3 JSON-RPC client transport, sending the bearer token. */
const legacyClient = (agent: string) =>
  new LegacyJsonRpcTransport({
    endpoint: endpoint(agent),
    fetchImpl: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${live.users.ann.token}`);
      return fetch(input, { ...init, headers });
    },
  });

const request = (text: string, task?: Task): SendMessageRequest => ({
  tenant: '',
  message: userMessage(
    [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    task,
  ),
  configuration: {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately: false,
  },
  metadata: undefined,
});

const asTask = (reply: unknown): Task => {
  expect(reply).toHaveProperty('status');
  return reply as Task;
};

describe('Cadre agents served to A2A v0.3 clients (raw v0.3 JSON-RPC and the SDK v0.3 transport, scripted model)', () => {
  it('the card for a v0.3 client (no A2A-Version) carries the v0.3 fields (protocolVersion, url, preferredTransport, typed scheme) beside the 1.0 ones', async () => {
    const res = await fetch(`${endpoint('greeter')}/.well-known/agent-card.json`);
    // Caches keep the two answers apart.
    expect(res.headers.get('vary')).toContain('A2A-Version');
    const raw = (await res.json()) as Record<string, unknown>;
    expect(raw).toMatchObject({
      protocolVersion: '0.3.0',
      url: endpoint('greeter'),
      preferredTransport: 'JSONRPC',
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security: [{ bearer: [] }],
      skills: [{ id: 'greeter', tags: ['greeter'] }],
    });
    // A 1.0 reader still sees its card, now listing the endpoint for both versions (1.0 first).
    const card = AgentCard.fromJSON(raw);
    expect(card.supportedInterfaces.map((i) => [i.url, i.protocolVersion])).toEqual([
      [endpoint('greeter'), '1.0'],
      [endpoint('greeter'), '0.3'],
    ]);
    expect(card.securitySchemes.bearer?.scheme?.$case).toBe('httpAuthSecurityScheme');
    expect(isLegacyAgentCard(raw)).toBe(false);
    // A 1.0 client names its version, and gets the 1.0 card alone.
    const v1 = (await (
      await fetch(`${endpoint('greeter')}/.well-known/agent-card.json`, {
        headers: { 'A2A-Version': '1.0' },
      })
    ).json()) as Record<string, unknown>;
    expect(v1).not.toHaveProperty('url');
    expect(v1).not.toHaveProperty('protocolVersion');
    expect(v1.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
    });
    expect(AgentCard.fromJSON(v1).supportedInterfaces).toEqual(card.supportedInterfaces);
    // Read as v0.3 alone (without the 1.0 interfaces), it names the same endpoint.
    const legacyOnly = { ...raw };
    delete legacyOnly.supportedInterfaces;
    const asLegacy = parseLegacyAgentCard(legacyOnly);
    expect(asLegacy.supportedInterfaces[0]).toMatchObject({
      url: endpoint('greeter'),
      protocolBinding: 'JSONRPC',
    });
  });

  it('message/send runs the agent and answers a v0.3 task; tasks/get reads the run', async () => {
    const sent = await rpc('greeter', 'message/send', {
      message: v03Message('hi from v0.3'),
      configuration: { blocking: true },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ jsonrpc: '2.0', id: 7 });
    const task = resultTask(sent.body);
    expect(task.kind).toBe('task');
    expect(task.status.state).toBe('completed');
    expect(task.artifacts?.[0]?.parts[0]).toEqual({
      kind: 'text',
      text: 'Hello! You said: hi from v0.3',
    });
    const run = await live.service.getRun((await live.store.auth.ensureUser('ann')).id, task.id);
    expect(run?.run.agent).toBe('greeter');
    const got = resultTask((await rpc('greeter', 'tasks/get', { id: task.id })).body);
    expect(got).toMatchObject({ kind: 'task', id: task.id, status: { state: 'completed' } });
  });

  it('refuses v0.3 calls without a valid bearer token, and names an unknown task with the v0.3 code', async () => {
    expect((await rpc('greeter', 'message/send', { message: v03Message('hi') }, '')).status).toBe(
      401,
    );
    const missing = await rpc('greeter', 'tasks/get', { id: 'no-such-task' });
    expect(missing.body.error).toMatchObject({ code: -32001 });
  });

  it('an approval is input-required; "approve" on the task (v0.3 message) carries the run on, a v0.3 data part rejects', async () => {
    const asked = resultTask(
      (
        await rpc('writer', 'message/send', {
          message: v03Message('write v03.txt'),
          configuration: { blocking: true },
        })
      ).body,
    );
    expect(asked.status.state).toBe('input-required');
    expect(JSON.stringify(asked.status.message)).toContain('v03.txt');
    const done = resultTask(
      (
        await rpc('writer', 'message/send', {
          message: v03Message('approve', asked),
          configuration: { blocking: true },
        })
      ).body,
    );
    expect(done).toMatchObject({ id: asked.id, status: { state: 'completed' } });
    expect(await readFile(join(live.dir, 'v03.txt'), 'utf8')).toBe('hi');

    // A v0.3 data part ({kind: 'data'}) naming the approval rejects that call.
    const again = resultTask(
      (
        await rpc('writer', 'message/send', {
          message: v03Message('write v03-no.txt'),
          configuration: { blocking: true },
        })
      ).body,
    );
    const annId = (await live.store.auth.ensureUser('ann')).id;
    const pending = (await live.service.pendingApprovals(annId)).filter(
      (a) => a.runId === again.id,
    );
    expect(pending).toHaveLength(1);
    const rejected = resultTask(
      (
        await rpc('writer', 'message/send', {
          message: {
            ...v03Message('', again),
            parts: [
              {
                kind: 'data',
                data: { decision: 'reject', approvalId: pending[0]?.approvalId, feedback: 'no' },
              },
            ],
          },
          configuration: { blocking: true },
        })
      ).body,
    );
    expect(rejected.status.state).toBe('completed');
    await expect(readFile(join(live.dir, 'v03-no.txt'))).rejects.toThrow();
  });

  it('message/stream through the SDK v0.3 transport streams the task, the answer and the end', async () => {
    const events = await streamed(
      legacyClient('greeter').sendMessageStream(request('stream v0.3')),
    );
    expect(events[0]?.$case).toBe('task');
    expect(lastArtifactText(events)).toBe('Hello! You said: stream v0.3');
    expect(finalState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('tasks/cancel and tasks/resubscribe through the SDK v0.3 transport follow and stop a run', async () => {
    const client = legacyClient('writer');
    const waiting = asTask(await client.sendMessage(request('write never-v03.txt')));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const cancelled = await client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const raw = resultTask((await rpc('writer', 'tasks/get', { id: waiting.id })).body);
    expect(raw.status.state).toBe('canceled');

    const greeter = legacyClient('greeter');
    const seen = await followThenCancel(
      greeter.sendMessageStream(request('slow')),
      (id) => greeter.resubscribeTask({ tenant: '', id }),
      (id) => greeter.cancelTask({ tenant: '', id, metadata: undefined }),
    );
    expect(seen.task?.id ?? '').not.toBe('');
    expect(seen.snapshot).toBe('task');
    expect(seen.cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(finalState(seen.followed)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(finalState(seen.streamed)).toBe(TaskState.TASK_STATE_CANCELED);
  });
});
