import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../../model/scripted-model.js';
import { seedPendingApprovals } from '../../../store/testing/seed-pending.js';
import type { Store } from '../../../store/types.js';
import type { ApprovalView } from '../../run-service-types.js';
import { startRealTestServer, type RealTestServer } from '../testing/real-test-server.js';
import { auth, type TestServer } from '../testing/test-support.js';

interface PendingBody {
  ok: boolean;
  approvals: ApprovalView[];
  nextCursor: string | null;
}

let real: RealTestServer;
let store: Store;
let server: TestServer;
let token: string;

beforeEach(async () => {
  real = await startRealTestServer(await mkdtemp(join(tmpdir(), 'cadre-pending-')), {
    modelClient: new ScriptedModel([]),
    worker: false,
  });
  ({ store, server } = real);
});
afterEach(() => real.close());

async function userWithPending(count: number) {
  const seeded = await seedPendingApprovals(store, 'ann', count);
  ({ token } = await store.auth.createToken(seeded.userId));
  return seeded;
}

async function pending(query = ''): Promise<{ status: number; body: PendingBody }> {
  const res = await fetch(`${server.url}/api/agent/approvals/pending${query}`, {
    headers: auth(token),
  });
  return { status: res.status, body: (await res.json()) as PendingBody };
}

describe('GET /api/agent/approvals/pending (real HTTP and SQLite on 127.0.0.1)', () => {
  it('pages 50 at a time by default, following nextCursor to the end without repeats', async () => {
    const { approvals, threadId } = await userWithPending(120);
    const seen: string[] = [];
    const sizes: number[] = [];
    let query = '';
    for (;;) {
      const { status, body } = await pending(query);
      expect(status).toBe(200);
      sizes.push(body.approvals.length);
      seen.push(...body.approvals.map((a) => a.approvalId));
      if (body.nextCursor === null) break;
      query = `?cursor=${encodeURIComponent(body.nextCursor)}`;
    }
    expect(sizes).toEqual([50, 50, 20]);
    expect(seen).toEqual(approvals.map((a) => a.id));
    const first = (await pending('?limit=1')).body.approvals[0];
    expect(first).toMatchObject({
      approvalId: approvals[0]?.id,
      threadId,
      tool: 'gmail_send',
      preview: expect.stringContaining('person0@example.com'),
    });
  });

  it('takes a limit up to 200 and shows another user nothing of these', async () => {
    await userWithPending(230);
    const big = await pending('?limit=200');
    expect(big.body.approvals).toHaveLength(200);
    expect(big.body.nextCursor).toEqual(expect.any(String));
    const rest = await pending(`?limit=200&cursor=${big.body.nextCursor ?? ''}`);
    expect(rest.body.approvals).toHaveLength(30);
    expect(rest.body.nextCursor).toBeNull();

    const eve = await store.auth.ensureUser('eve');
    ({ token } = await store.auth.createToken(eve.id));
    expect((await pending()).body).toEqual({ ok: true, approvals: [], nextCursor: null });
  });

  it('refuses a bad limit or a cursor it did not give with 400 validation_error', async () => {
    await userWithPending(3);
    for (const query of ['?limit=0', '?limit=201', '?limit=ten', '?cursor=', '?cursor=not-ours'])
      expect(await pending(query)).toMatchObject({
        status: 400,
        body: { ok: false, error: { code: 'validation_error' } },
      });
  });
});
