import { describe, expect, it } from 'vitest';
import { approvalsFor, seedApproval, seedRun, type CurrentFixture } from './conformance-store.js';

export function approvalCases(fixture: CurrentFixture): void {
  describe('approvals', () => {
    it('the calls of one turn form one pending batch, in call order', async () => {
      const { store } = fixture();
      const { user, run } = await seedRun(store, 'alice', 'awaiting_confirmation');
      const calls = ['call_b', 'call_a', 'call_c'];
      const actions = [];
      for (const callId of calls)
        actions.push(
          await store.actions.create({
            runId: run.id,
            callId,
            tool: 'gmail_send',
            args: {},
            inputHash: callId,
            status: 'awaiting_confirmation',
            requiresApproval: true,
          }),
        );
      const created = await store.approvals.createBatch(approvalsFor(run, user.id, actions));
      expect(new Set(created.map((a) => a.batchId)).size).toBe(1);
      expect(created.every((a) => a.status === 'pending' && a.decision === undefined)).toBe(true);
      const batchId = created[0]?.batchId;
      const listed = await store.approvals.list(user.id, { batchId, status: 'pending' });
      expect(listed.map((a) => a.callId)).toEqual(calls);
      expect(await store.approvals.createBatch([])).toEqual([]);
    });

    it('lists pending approvals by user, run and thread; another user sees none', async () => {
      const { store } = fixture();
      const mine = await seedApproval(store, 'alice');
      const theirs = await seedApproval(store, 'bob');
      const pending = await store.approvals.list(mine.user.id, { status: 'pending' });
      expect(pending).toEqual([mine.approval]);
      expect(await store.approvals.list(mine.user.id, { threadId: mine.thread.id })).toEqual([
        mine.approval,
      ]);
      expect(await store.approvals.list(mine.user.id, { threadId: theirs.thread.id })).toEqual([]);
      expect(await store.approvals.list(mine.user.id, { runId: mine.run.id })).toEqual([
        mine.approval,
      ]);
      expect(await store.approvals.list(mine.user.id, { status: 'approved' })).toEqual([]);
      expect(await store.approvals.get(mine.approval.id, theirs.user.id)).toBeUndefined();
      expect(await store.approvals.get(mine.approval.id, mine.user.id)).toEqual(mine.approval);
    });

    it('approving resolves once; the second resolve is already_resolved (HTTP 409)', async () => {
      const { store } = fixture();
      const { user, approval } = await seedApproval(store);
      const first = await store.approvals.resolve(approval.id, {
        userId: user.id,
        decision: 'approve_once',
      });
      expect(first.ok && first.approval).toMatchObject({
        status: 'approved',
        decision: 'approve_once',
      });
      expect(first.ok && first.approval.resolvedAt).toBeTruthy();
      const second = await store.approvals.resolve(approval.id, {
        userId: user.id,
        decision: 'reject',
      });
      expect(second).toEqual({ ok: false, reason: 'already_resolved' });
      expect((await store.approvals.get(approval.id, user.id))?.decision).toBe('approve_once');
    });

    it("rejecting keeps the feedback; another user's or an unknown approval is not_found (HTTP 404)", async () => {
      const { store } = fixture();
      const { user, approval } = await seedApproval(store);
      const bob = await store.auth.ensureUser('bob');
      expect(
        await store.approvals.resolve(approval.id, {
          userId: bob.id,
          decision: 'approve_once',
        }),
      ).toEqual({
        ok: false,
        reason: 'not_found',
      });
      expect(
        await store.approvals.resolve('missing', { userId: user.id, decision: 'reject' }),
      ).toEqual({
        ok: false,
        reason: 'not_found',
      });
      const rejected = await store.approvals.resolve(approval.id, {
        userId: user.id,
        decision: 'reject',
        feedback: 'Not to Bob.',
      });
      expect(rejected.ok && rejected.approval).toMatchObject({
        status: 'rejected',
        feedback: 'Not to Bob.',
      });
    });

    it('RACE: concurrent resolves of one approval: exactly one ok, the rest already_resolved', async () => {
      const { store } = fixture();
      const { user, approval } = await seedApproval(store);
      const decisions = [
        'approve_once',
        'reject',
        'approve_and_always_allow_recipient',
        'approve_once',
      ] as const;
      const results = await Promise.all(
        decisions.map((decision) =>
          store.approvals.resolve(approval.id, { userId: user.id, decision }),
        ),
      );
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === 'already_resolved')).toHaveLength(3);
      const stored = await store.approvals.get(approval.id, user.id);
      expect(winners[0]?.ok && stored).toEqual(winners[0]?.ok && winners[0].approval);
    });

    it('pages pending approvals by cursor, oldest first, with thread and arguments', async () => {
      const { store } = fixture();
      const { user, thread, run } = await seedRun(store, 'alice', 'awaiting_confirmation');
      const actions = [];
      for (let i = 1; i <= 5; i++)
        actions.push(
          await store.actions.create({
            runId: run.id,
            callId: `call_${i}`,
            tool: 'gmail_send',
            args: { to: `person${i}@example.com` },
            inputHash: String(i),
            status: 'awaiting_confirmation',
            requiresApproval: true,
          }),
        );
      const created = await store.approvals.createBatch(approvalsFor(run, user.id, actions));
      const theirs = await seedApproval(store, 'bob');
      const decided = created[1];
      if (!decided) throw new Error('no second approval');
      await store.approvals.resolve(decided.id, { userId: user.id, decision: 'reject' });
      const pendingIds = created.filter((a) => a !== decided).map((a) => a.id);

      const first = await store.approvals.listPending(user.id, { limit: 2 });
      expect(first.approvals.map((p) => p.approval.id)).toEqual(pendingIds.slice(0, 2));
      expect(first.approvals[0]).toEqual({
        approval: created[0],
        threadId: thread.id,
        args: { to: 'person1@example.com' },
      });
      expect(first.next).toBeDefined();
      const second = await store.approvals.listPending(user.id, { after: first.next, limit: 2 });
      expect(second.approvals.map((p) => p.approval.id)).toEqual(pendingIds.slice(2));
      // Exactly a page's worth left: no further page is promised.
      expect(second.next).toBeUndefined();

      const all = await store.approvals.listPending(user.id, { limit: 50 });
      expect(all.approvals.map((p) => p.approval.id)).toEqual(pendingIds);
      expect(all.next).toBeUndefined();
      const bobs = await store.approvals.listPending(theirs.user.id, { limit: 50 });
      expect(bobs.approvals.map((p) => p.approval.id)).toEqual([theirs.approval.id]);
      expect(
        await store.approvals.listPending(user.id, { after: pendingIds.at(-1), limit: 50 }),
      ).toEqual({ approvals: [] });
    });
  });
}
