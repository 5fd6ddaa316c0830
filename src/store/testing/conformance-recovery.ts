import { describe, expect, it } from 'vitest';
import type { ActionStatus } from '../records.js';
import { seedApproval, seedRun, type CurrentFixture } from './store-fixture.js';

export function recoveryCases(fixture: CurrentFixture): void {
  describe('recovery at start-up', () => {
    it('fails mid-flight runs and executing actions as interrupted; waiting work stays', async () => {
      const { store } = fixture();
      const planning = await seedRun(store, 'alice', 'planning');
      const executing = await seedRun(store, 'bob', 'executing');
      const queued = await seedRun(store, 'carol', 'queued');
      const done = await seedRun(store, 'dave', 'completed');
      const waiting = await seedApproval(store, 'erin');
      const statuses: ActionStatus[] = ['executing', 'planned', 'completed'];
      const actions = [];
      for (const status of statuses)
        actions.push(
          await store.createAction({
            runId: executing.run.id,
            callId: status,
            tool: 'gmail_send',
            args: {},
            inputHash: status,
            status,
            requiresApproval: false,
          }),
        );

      expect(await store.recoverInterrupted()).toEqual({ runs: 2, actions: 1 });

      for (const { user, run } of [planning, executing]) {
        const read = await store.getRun(user.id, run.id);
        expect(read).toMatchObject({ status: 'failed', errorCode: 'interrupted' });
        expect(read?.finishedAt).toBeTruthy();
      }
      expect((await store.getRun(queued.user.id, queued.run.id))?.status).toBe('queued');
      expect((await store.getRun(done.user.id, done.run.id))?.status).toBe('completed');
      expect((await store.getRun(waiting.user.id, waiting.run.id))?.status).toBe(
        'awaiting_confirmation',
      );
      const after = await store.listActions(executing.run.id);
      expect(after.map((a) => [a.status, a.errorCode])).toEqual([
        ['failed', 'interrupted'],
        ['planned', undefined],
        ['completed', undefined],
      ]);
      expect((await store.getAction(waiting.action.id))?.status).toBe('awaiting_confirmation');
      expect(await store.listApprovals(waiting.user.id, { status: 'pending' })).toEqual([
        waiting.approval,
      ]);
    });

    it('an interrupted action can never be moved to executing again', async () => {
      const { store } = fixture();
      const { action } = await seedApproval(store);
      await store.transitionAction(action.id, { from: 'awaiting_confirmation', to: 'executing' });
      await store.recoverInterrupted();
      const retry = await store.transitionAction(action.id, {
        from: 'awaiting_confirmation',
        to: 'executing',
      });
      expect(retry).toEqual({ ok: false, reason: 'status_mismatch', status: 'failed' });
      expect(await store.recoverInterrupted()).toEqual({ runs: 0, actions: 0 });
    });
  });

  describe('cancellation', () => {
    it('an aborted signal stops reads and writes before they start', async () => {
      const { store, db } = fixture();
      const { user, run, approval } = await seedApproval(store);
      const signal = AbortSignal.abort();
      await expect(store.getRun(user.id, run.id, signal)).rejects.toThrow();
      await expect(store.createThread({ userId: user.id, title: 'x' }, signal)).rejects.toThrow();
      await expect(
        store.resolveApproval(
          { approvalId: approval.id, userId: user.id, decision: 'approve_once' },
          signal,
        ),
      ).rejects.toThrow();
      await expect(store.appendAudit({ message: 'x' }, signal)).rejects.toThrow();
      expect(await db.selectFrom('threads').selectAll().execute()).toHaveLength(1);
      expect((await store.getApproval(user.id, approval.id))?.status).toBe('pending');
    });
  });
}
