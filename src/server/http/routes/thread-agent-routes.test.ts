import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../../model/scripted-model.js';
import type { RunService } from '../../run-service-types.js';
import { startRealTestServer, type RealTestServer } from '../testing/real-test-server.js';
import type { TestServer } from '../testing/test-support.js';

let real: RealTestServer;
let service: RunService;
let server: TestServer;
let token = '';
let userId = '';

// Every agent answers with its own system prompt, so an answer says which agent ran.
const model = new ScriptedModel((request) => ({
  parts: [{ text: `${request.systemInstruction ?? ''}`.split('\n')[0] ?? '' }],
}));

beforeAll(async () => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-thread-agent-')));
  await mkdir(join(dir, 'agents'));
  for (const name of ['greeter', 'planner'])
    await writeFile(
      join(dir, 'agents', `${name}.yaml`),
      `name: ${name}\ndescription: The ${name}.\ntoolConfig:\n  tools: []\npromptConfig:\n  systemPrompt: I am the ${name}.\n`,
    );
  real = await startRealTestServer(dir, { modelClient: model });
  ({ service, server } = real);
  const user = await real.store.auth.ensureUser('ann');
  userId = user.id;
  token = (await real.store.auth.createToken(user.id)).token;
});
afterAll(() => real.close());

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('a thread keeps its agent (HTTP API, scripted model)', () => {
  it('a follow-up with {prompt, threadId} goes on with the thread’s agent, not the default assistant', async () => {
    const first = await call('POST', '/api/agent/run', { prompt: 'Hello', agent: 'greeter' });
    expect(first.body).toMatchObject({ status: 'completed', summary: 'I am the greeter.' });
    const threadId = first.body.threadId as string;
    const next = await call('POST', '/api/agent/run', { prompt: 'And again', threadId });
    // Before, the follow-up ran the default assistant.
    expect(next.body).toMatchObject({ status: 'completed', summary: 'I am the greeter.' });
    const run = await service.getRun(userId, next.body.runId as string);
    expect(run?.run.agent).toBe('greeter');
    // Naming the same agent again is fine.
    const same = await call('POST', '/api/agent/run', {
      prompt: 'Once more',
      threadId,
      agent: 'greeter',
    });
    expect(same.status).toBe(200);
  });

  it('naming another agent for a thread is 409 thread_agent_mismatch, and nothing runs', async () => {
    const first = await call('POST', '/api/agent/run', { prompt: 'Hi', agent: 'greeter' });
    const threadId = first.body.threadId as string;
    const before = (await service.getThread(userId, threadId))?.messages.length;
    for (const path of ['/api/agent/run', '/api/agent/run/stream']) {
      const other = await call('POST', path, { prompt: 'Plan it', threadId, agent: 'planner' });
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({ ok: false, error: { code: 'thread_agent_mismatch' } });
      expect((other.body.error as { message: string }).message).toContain(
        "talks to agent 'greeter', not 'planner'",
      );
    }
    expect((await service.getThread(userId, threadId))?.messages.length).toBe(before);
  });

  it('thread reads name the agent: GET /api/threads and /api/threads/:id', async () => {
    const first = await call('POST', '/api/agent/run', { prompt: 'Plan', agent: 'planner' });
    const threadId = first.body.threadId as string;
    const list = await call('GET', '/api/threads');
    expect(list.body.threads).toContainEqual(
      expect.objectContaining({ id: threadId, agent: 'planner' }),
    );
    const one = await call('GET', `/api/threads/${threadId}`);
    expect(one.body.thread).toMatchObject({ id: threadId, agent: 'planner' });
    const plain = await call('POST', '/api/agent/run', { prompt: 'Hello there' });
    const defaultThread = await call('GET', `/api/threads/${plain.body.threadId as string}`);
    expect(defaultThread.body.thread).toMatchObject({ agent: 'assistant' });
  });
});
