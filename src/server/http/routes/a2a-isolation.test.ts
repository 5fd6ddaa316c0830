import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const users = { ann: { id: '', token: '' }, bob: { id: '', token: '' } };

const promptOf = (r: ModelRequest): string => {
  for (const part of r.messages.flatMap((m) => m.parts))
    if (part.kind === 'text' && part.text.trim()) return part.text;
  return '';
};
const answered = (r: ModelRequest): boolean =>
  r.messages.at(-1)?.parts.some((p) => p.kind === 'function_response') ?? false;

/** "write <path>" asks to write a file (which needs approval); anything else is greeted. */
const model = new ScriptedModel((r): ScriptedTurn => {
  const prompt = promptOf(r);
  if (answered(r)) return { parts: [{ text: 'Tool said: {{toolResult}}' }] };
  const path = /^write (\S+)/.exec(prompt)?.[1];
  if (path)
    return { parts: [{ functionCall: { name: 'write_file', args: { path, content: 'hi' } } }] };
  return { parts: [{ text: `Hello! You said: ${prompt}` }] };
});

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-a2a-isolation-')));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents/writer.yaml'),
    'name: writer\ndescription: Writes files.\ntoolConfig:\n  tools: [write_file]\npromptConfig:\n  systemPrompt: Write.\n',
  );
  store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  service = await createRunService({ store, cwd: dir, env: { HOME: dir }, modelClient: model });
  for (const name of ['ann', 'bob'] as const) {
    const user = await store.auth.ensureUser(name);
    users[name] = { id: user.id, token: (await store.auth.createToken(user.id)).token };
  }
  server = await startTestServer(service, { store });
});
afterAll(async () => {
  await server.close();
  await service.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** One raw JSON-RPC call to the writer's endpoint, as `who`; the whole body, read as text (a stream too). */
async function rpc(
  who: keyof typeof users,
  method: string,
  params: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/a2a/writer`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${users[who].token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method, params }),
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
  const view = await service.getRun(users.ann.id, runId);
  const thread = view && (await service.getThread(users.ann.id, view.run.threadId));
  return {
    threadMessages: thread?.messages.map((m) => m.seq),
    status: view?.run.status,
    eventSeq: view?.run.eventSeq,
    cancelRequested: view?.run.cancelRequested,
    updatedAt: view?.run.updatedAt,
    approvals: view?.approvals.map((a) => [a.id, a.status]),
    actions: view?.actions.map((a) => [a.id, a.status]),
    audit: (await service.audit(users.ann.id, runId)).length,
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
    const pending = (await service.pendingApprovals(users.ann.id)).filter(
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
    expect(await service.getRun(users.ann.id, bobs.id)).toBeUndefined();
    // His run asked the model once, with none of her thread in it.
    expect(JSON.stringify(model.requests.at(-1)?.messages)).not.toContain('secret.txt');
    expect(await snapshot(task.id)).toEqual({ ...before, modelCalls: before.modelCalls + 1 });

    // Still waiting, nothing written, nothing sent to the model: ann decides it herself.
    await expect(readFile(join(dir, 'secret.txt'))).rejects.toThrow();
    const still = await rpc('ann', 'GetTask', { id: task.id });
    expect(still.body.result).toMatchObject({ status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    const calls = model.requests.length;
    const done = await rpc('ann', 'SendMessage', { message: v1Message(task, approveText) });
    expect(done.body.result).toMatchObject({
      task: { id: task.id, status: { state: 'TASK_STATE_COMPLETED' } },
    });
    expect(model.requests.length).toBe(calls + 1);
    expect(await readFile(join(dir, 'secret.txt'), 'utf8')).toBe('hi');
    const trail = (await service.audit(users.ann.id, task.id)).map((e) => e.message).join('\n');
    expect(trail).toContain('decided by ann');
    expect(trail).not.toContain('bob');
  });
});
