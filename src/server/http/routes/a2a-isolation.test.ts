import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAgentsTestServer,
  WRITER_AGENT,
  type AgentsTestServer,
} from '../testing/real-test-server.js';
import { postJsonRpc, writerModel } from './testing/a2a-test-server.js';

let live: AgentsTestServer<'ann' | 'bob'>;
/** "write <path>" asks to write a file (which needs approval); anything else is greeted. */
const model = writerModel();

beforeAll(async () => {
  live = await startAgentsTestServer({
    prefix: 'cadre-a2a-isolation-',
    agents: { writer: WRITER_AGENT },
    users: ['ann', 'bob'],
    run: { modelClient: model },
  });
});
afterAll(() => live.close());

/** One raw JSON-RPC call to the writer's endpoint, as `who`; the whole body, read as text (a stream too). */
async function rpc(
  who: 'ann' | 'bob',
  method: string,
  params: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await postJsonRpc(`${live.server.url}/a2a/writer`, {
    id: 9,
    method,
    params,
    bearer: live.users[who].token,
  });
  const text = await res.text();
  // A refused stream answers plain JSON; anything framed as events would be a leak.
  expect(res.headers.get('content-type')).toContain('application/json');
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
}

type Ids = { id: string; contextId: string };

/** A user message on a task, in the 1.0 JSON (`parts: [{text}]`) or v0.3's (`kind` discriminators). */
const v1Message = (task: Ids, part: Record<string, unknown>) => ({
  messageId: randomUUID(),
  role: 'ROLE_USER',
  taskId: task.id,
  contextId: task.contextId,
  parts: [part],
});
const v03Message = (task: Ids, part: Record<string, unknown>) => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  taskId: task.id,
  contextId: task.contextId,
  parts: [part],
});

/** Everything that tells whether a run moved: its state, log, approvals, trail and thread, and the model. */
async function snapshot(runId: string) {
  const view = await live.service.getRun(live.users.ann.id, runId);
  const thread = view && (await live.service.getThread(live.users.ann.id, view.run.threadId));
  return {
    threadMessages: thread?.messages.map((m) => m.seq),
    status: view?.run.status,
    eventSeq: view?.run.eventSeq,
    cancelRequested: view?.run.cancelRequested,
    updatedAt: view?.run.updatedAt,
    approvals: view?.approvals.map((a) => [a.id, a.status]),
    actions: view?.actions.map((a) => [a.id, a.status]),
    audit: (await live.service.audit(live.users.ann.id, runId)).length,
    modelCalls: model.requests.length,
  };
}

describe("one user cannot reach another's A2A task (two users, real server, scripted model)", () => {
  it("bob, knowing ann's waiting task and its approval, gets not found from every method in 1.0 and v0.3; her run stays waiting, untouched", async () => {
    const asked = await rpc('ann', 'SendMessage', {
      message: {
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'write secret.txt' }],
      },
    });
    expect(asked.body.error).toBeUndefined();
    const task = (asked.body.result as { task: Ids & { status: { state: string } } }).task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const pending = (await live.service.pendingApprovals(live.users.ann.id)).filter(
      (a) => a.runId === task.id,
    );
    expect(pending).toHaveLength(1);
    const approvalId = pending[0]?.approvalId ?? '';
    const before = await snapshot(task.id);
    expect(before.status).toBe('awaiting_confirmation');

    const approveText = { text: 'approve' };
    const approveData = { data: { decision: 'approve', approvalId } };
    const attacks: Array<[string, unknown]> = [
      ['GetTask', { id: task.id }],
      ['SendMessage', { message: v1Message(task, approveText) }],
      ['SendMessage', { message: v1Message(task, approveData) }],
      ['SendStreamingMessage', { message: v1Message(task, approveText) }],
      ['CancelTask', { id: task.id }],
      ['SubscribeToTask', { id: task.id }],
      ['tasks/get', { id: task.id }],
      ['message/send', { message: v03Message(task, { kind: 'text', text: 'approve' }) }],
      ['message/send', { message: v03Message(task, { kind: 'data', data: approveData.data }) }],
      ['message/stream', { message: v03Message(task, { kind: 'text', text: 'approve' }) }],
      ['tasks/cancel', { id: task.id }],
      ['tasks/resubscribe', { id: task.id }],
    ];
    for (const [method, params] of attacks) {
      const answer = await rpc('bob', method, params);
      expect({ method, status: answer.status, result: answer.body.result }).toEqual({
        method,
        status: 200,
        result: undefined,
      });
      // Task not found (the same code in both versions), saying nothing of ann's run.
      expect({ method, error: answer.body.error }).toMatchObject({
        method,
        error: { code: -32001 },
      });
      expect(JSON.stringify(answer.body)).not.toContain('secret.txt');
      expect(await snapshot(task.id)).toEqual(before);
    }

    // Ann's own context id in a fresh message from bob starts bob's own run, never one in her thread.
    const own = await rpc('bob', 'message/send', {
      message: {
        kind: 'message',
        messageId: randomUUID(),
        role: 'user',
        contextId: task.contextId,
        parts: [{ kind: 'text', text: 'hello' }],
      },
      configuration: { blocking: true },
    });
    const bobs = own.body.result as Ids;
    expect(bobs.contextId).not.toBe(task.contextId);
    expect(await live.service.getRun(live.users.ann.id, bobs.id)).toBeUndefined();
    // His run asked the model once, with none of her thread in it.
    expect(JSON.stringify(model.requests.at(-1)?.messages)).not.toContain('secret.txt');
    expect(await snapshot(task.id)).toEqual({ ...before, modelCalls: before.modelCalls + 1 });

    // Still waiting, nothing written, nothing sent to the model: ann decides it herself.
    await expect(readFile(join(live.dir, 'secret.txt'))).rejects.toThrow();
    const still = await rpc('ann', 'GetTask', { id: task.id });
    expect(still.body.result).toMatchObject({ status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    const calls = model.requests.length;
    const done = await rpc('ann', 'SendMessage', { message: v1Message(task, approveText) });
    expect(done.body.result).toMatchObject({
      task: { id: task.id, status: { state: 'TASK_STATE_COMPLETED' } },
    });
    expect(model.requests.length).toBe(calls + 1);
    expect(await readFile(join(live.dir, 'secret.txt'), 'utf8')).toBe('hi');
    const trail = (await live.service.audit(live.users.ann.id, task.id))
      .map((e) => e.message)
      .join('\n');
    expect(trail).toContain('decided by ann');
    expect(trail).not.toContain('bob');
  });
});
