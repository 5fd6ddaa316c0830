import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../../model/scripted-model.js';
import type { ResolveRequest, RunService } from '../../run-service-types.js';
import {
  startAgentsTestServer,
  WRITER_AGENT,
  type AgentsTestServer,
} from '../testing/real-test-server.js';
import { answered, promptOf, sendMessage } from './testing/a2a-test-server.js';

let live: AgentsTestServer<'ann'>;
/**
 * Where the page's decision lands in the A2A message's batch: run once, just
 * before (`before`) or after (`after`) the message's first decision is stored.
 */
let race: { when: 'before' | 'after'; page: (messageDecides: string) => Promise<void> } | undefined;

/** "write <a> <b>" asks to write two files in one turn: one batch of two approvals. */
const model = new ScriptedModel(
  (r): ScriptedTurn => {
    if (answered(r)) return { parts: [{ text: 'Tool said: {{toolResult}}' }] };
    const paths = promptOf(r).split(/\s+/).slice(1);
    return {
      parts: paths.map((path) => ({
        functionCall: { name: 'write_file', args: { path, content: path } },
      })),
    };
  },
  { uniqueCallIds: true },
);

beforeAll(async () => {
  live = await startAgentsTestServer({
    prefix: 'cadre-a2a-race-',
    agents: { writer: WRITER_AGENT },
    users: ['ann'],
    run: { modelClient: model },
    // The server's service, with the page's decision slotted into the A2A message's batch.
    serve: (service): RunService => ({
      ...service,
      resolveApproval: async (request: ResolveRequest, hooks) => {
        const armed = race;
        if (armed?.when === 'before') await fire(request.approvalId);
        const response = await service.resolveApproval(request, hooks);
        if (armed?.when === 'after') await fire(request.approvalId);
        return response;
      },
    }),
  });
});
afterAll(() => live.close());

/** Runs the armed race once (the page's own calls pass through untouched). */
async function fire(messageDecides: string): Promise<void> {
  const armed = race;
  race = undefined;
  await armed?.page(messageDecides);
}

const headers = () => ({
  'content-type': 'application/json',
  authorization: `Bearer ${live.users.ann.token}`,
});

/** The page deciding one approval: POST /api/agent/approvals/resolve, answered once the run settles. */
async function pageResolve(approvalId: string, decision: 'approve_once' | 'reject') {
  const res = await fetch(`${live.server.url}/api/agent/approvals/resolve`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ approvalId, decision }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { status: string };
}

/** One A2A 1.0 SendMessage to the writer, as ann; its result's task. */
const send = (text: string, task?: { id: string; contextId: string }) =>
  sendMessage(`${live.server.url}/a2a/writer`, live.users.ann.token, text, task);

const pendingOf = async (runId: string) =>
  (await live.service.pendingApprovals(live.users.ann.id)).filter((a) => a.runId === runId);

const decisions = async (runId: string) =>
  (await live.service.audit(live.users.ann.id, runId))
    .map((entry) => /(decided|rejected) by [^;,]*/.exec(entry.message)?.[0])
    .filter(Boolean);

describe('an A2A "approve" and the page deciding the same batch at the same moment (scripted)', () => {
  it("the page deciding the last approval between the message's decisions: the message takes it as decided, and answers the run resumed by the page", async () => {
    const asked = await send('write race-a.txt race-b.txt');
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const pending = await pendingOf(asked.id);
    expect(pending).toHaveLength(2);
    let page: { status: string } | undefined;
    race = {
      when: 'after',
      // The other one of the two, still pending.
      page: async (messageDecided) => {
        const other = pending.find((a) => a.approvalId !== messageDecided)?.approvalId ?? '';
        page = await pageResolve(other, 'approve_once');
      },
    };
    const done = await send('approve', asked);
    expect(race).toBeUndefined();
    // The page's decision completed the batch and resumed the run; both answers see it finished.
    expect(page?.status).toBe('completed');
    expect(done).toMatchObject({ id: asked.id, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(await readFile(join(live.dir, 'race-a.txt'), 'utf8')).toBe('race-a.txt');
    expect(await readFile(join(live.dir, 'race-b.txt'), 'utf8')).toBe('race-b.txt');
    expect(await decisions(asked.id)).toEqual([
      'decided by ann: approve_once',
      'decided by ann: approve_once',
    ]);
    expect((await live.service.getRun(live.users.ann.id, asked.id))?.run.status).toBe('completed');
  });

  it('the page rejecting the whole batch just before the message decides: the rejections stand, and the message answers the run they resumed', async () => {
    const asked = await send('write race-c.txt race-d.txt');
    const pending = await pendingOf(asked.id);
    expect(pending).toHaveLength(2);
    race = {
      when: 'before',
      page: async () => {
        for (const approval of pending) await pageResolve(approval.approvalId, 'reject');
      },
    };
    const done = await send('approve', asked);
    expect(race).toBeUndefined();
    expect(done).toMatchObject({ id: asked.id, status: { state: 'TASK_STATE_COMPLETED' } });
    await expect(readFile(join(live.dir, 'race-c.txt'))).rejects.toThrow();
    await expect(readFile(join(live.dir, 'race-d.txt'))).rejects.toThrow();
    expect(await decisions(asked.id)).toEqual(['rejected by ann', 'rejected by ann']);
  });
});
