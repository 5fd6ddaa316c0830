import { describe, expect, it } from 'vitest';
import type { Store } from '../types.js';
import {
  sampleEvent,
  seedApproval,
  seedRun,
  tablesOf,
  type CurrentFixture,
} from './conformance-store.js';

const LEASE_MS = 60_000;

async function enqueue(store: Store, userName = 'alice', threadId?: string) {
  const user = await store.auth.ensureUser(userName);
  const queued = await store.queue.enqueue({
    userId: user.id,
    ...(threadId ? { threadId } : {}),
    title: 'Mail Bob',
    prompt: 'Mail Bob',
    agent: 'assistant',
    definitionSnapshot: { name: 'assistant' },
    definitionHash: 'a'.repeat(64),
    model: 'scripted',
  });
  if (!queued) throw new Error('enqueue found no thread');
  return { user, ...queued };
}

export function queueCases(fixture: CurrentFixture): void {
  describe('runs as durable jobs', () => {
    it('enqueueing writes thread, prompt and a queued run with its start job together', async () => {
      const { store } = fixture();
      const { user, thread, message, run } = await enqueue(store);
      expect(run).toMatchObject({ status: 'queued', threadId: thread.id, cancelRequested: false });
      expect(run.job).toEqual({ kind: 'start', prompt: 'Mail Bob', messageSeq: message.seq });
      expect(await store.threads.listMessages(thread.id)).toEqual([message]);
      const again = await enqueue(store, 'alice', thread.id);
      expect(again.message.seq).toBe(message.seq + 1);
      expect(again.thread.id).toBe(thread.id);
      // Another user's thread is not found, and nothing is written.
      const mallory = await store.auth.ensureUser('mallory');
      expect(
        await store.queue.enqueue({
          userId: mallory.id,
          threadId: thread.id,
          title: 'x',
          prompt: 'x',
          agent: 'assistant',
          definitionSnapshot: {},
          definitionHash: 'a',
          model: 'm',
        }),
      ).toBeUndefined();
      expect(await store.threads.listMessages(thread.id)).toHaveLength(2);
      expect((await store.runs.get(run.id, user.id))?.status).toBe('queued');
    });

    it('each queued run is leased by exactly one of several racing workers', async () => {
      const { store } = fixture();
      const runs = [
        await enqueue(store),
        await enqueue(store, 'bob'),
        await enqueue(store, 'carol'),
      ];
      const leases = await Promise.all(
        ['w1', 'w2', 'w3', 'w4', 'w5'].map((owner) => store.queue.leaseNext(owner, LEASE_MS)),
      );
      const won = leases.flatMap((c) => (c ? [c.run.id] : []));
      expect(won.sort()).toEqual(runs.map((r) => r.run.id).sort());
      for (const leased of leases.filter((c) => c !== undefined)) {
        expect(leased.takenOver).toBe(false);
        expect(leased.run.status).toBe('planning');
        expect(Date.parse(leased.run.leaseUntil ?? '')).toBeGreaterThan(Date.now());
      }
      expect(await store.queue.leaseNext('w6', LEASE_MS)).toBeUndefined();
    });

    it('a live lease is never taken over; an expired one is, and its executing effects become interrupted', async () => {
      const { store } = fixture();
      const { user, run } = await enqueue(store);
      const first = await store.queue.leaseNext('dead', 1);
      expect(first?.run.owner).toBe('dead');
      const effect = await store.actions.create({
        runId: run.id,
        callId: 'c1',
        tool: 'gmail_send',
        args: {},
        inputHash: 'h',
        status: 'executing',
        requiresApproval: false,
      });
      const finished = await store.actions.create({
        runId: run.id,
        callId: 'c2',
        tool: 'gmail_send',
        args: {},
        inputHash: 'h',
        status: 'completed',
        requiresApproval: false,
      });
      // A real 5 ms, kept: the store judges the 1 ms lease against the real time itself.
      await new Promise((r) => setTimeout(r, 5));
      const taken = await store.queue.leaseNext('alive', LEASE_MS);
      expect(taken).toMatchObject({ takenOver: true, run: { id: run.id, owner: 'alive' } });
      expect(taken?.interrupted.map((a) => a.id)).toEqual([effect.id]);
      expect(await store.actions.get(effect.id)).toMatchObject({
        status: 'interrupted',
        errorCode: 'interrupted',
      });
      expect((await store.actions.get(finished.id))?.status).toBe('completed');
      // The new owner's lease is live: nobody else can take it.
      expect(await store.queue.leaseNext('third', LEASE_MS)).toBeUndefined();
      // The old owner can no longer write the run or renew its lease.
      expect(await store.runs.update(run.id, { summary: 'late' }, { owner: 'dead' })).toMatchObject(
        {
          ok: false,
        },
      );
      expect(await store.queue.renewLeases([{ runId: run.id, owner: 'dead' }], LEASE_MS)).toEqual({
        kept: [],
        cancelRequested: [],
      });
      expect(await store.queue.renewLeases([{ runId: run.id, owner: 'alive' }], LEASE_MS)).toEqual({
        kept: [run.id],
        cancelRequested: [],
      });
      // Nor start an effect (it stalled past its lease; the new owner will see the call): a move
      // to executing on behalf of an owner holds only while that owner holds the run.
      const late = await store.actions.create({
        runId: run.id,
        callId: 'late',
        tool: 'gmail_send',
        args: {},
        inputHash: 'h',
        status: 'planned',
        requiresApproval: false,
      });
      expect(
        await store.actions.transition(late.id, {
          from: 'planned',
          to: 'executing',
          heldBy: 'dead',
        }),
      ).toEqual({ ok: false, reason: 'not_held' });
      expect((await store.actions.get(late.id))?.status).toBe('planned');
      expect(
        await store.actions.transition(late.id, {
          from: 'planned',
          to: 'executing',
          heldBy: 'alive',
        }),
      ).toMatchObject({ ok: true, value: { status: 'executing' } });
      // An interrupted effect can never be moved to executing again.
      expect(
        await store.actions.transition(effect.id, {
          from: 'awaiting_confirmation',
          to: 'executing',
        }),
      ).toEqual({ ok: false, reason: 'status_mismatch', status: 'interrupted' });
      expect((await store.runs.get(run.id, user.id))?.summary).toBe('');
    });

    it('expired leases (a shutdown) hand runs over at once', async () => {
      const { store } = fixture();
      const { run } = await enqueue(store);
      await store.queue.leaseNext('leaving', LEASE_MS);
      expect(await store.queue.leaseNext('other', LEASE_MS)).toBeUndefined();
      await store.queue.expireLeases([{ runId: run.id, owner: 'leaving' }]);
      expect((await store.queue.leaseNext('other', LEASE_MS))?.run.id).toBe(run.id);
    });

    it('cancelling ends an idle run and closes its approvals, or flags a driven one for its owner', async () => {
      const { store } = fixture();
      const waiting = await seedApproval(store);
      const cancelled = await store.runs.requestCancel(waiting.run.id, waiting.user.id);
      expect(cancelled).toMatchObject({ status: 'cancelled', errorCode: 'cancelled' });
      expect((await store.approvals.get(waiting.approval.id, waiting.user.id))?.status).toBe(
        'rejected',
      );
      expect((await store.actions.get(waiting.action.id))?.status).toBe('rejected');

      const { user, run } = await enqueue(store, 'bob');
      await store.queue.leaseNext('w', LEASE_MS);
      expect(await store.runs.requestCancel(run.id, user.id)).toMatchObject({
        status: 'planning',
        cancelRequested: true,
      });
      expect(await store.queue.renewLeases([{ runId: run.id, owner: 'w' }], LEASE_MS)).toEqual({
        kept: [run.id],
        cancelRequested: [run.id],
      });
      const mallory = await store.auth.ensureUser('mallory');
      expect(await store.runs.requestCancel(run.id, mallory.id)).toBeUndefined();
      const done = await seedRun(store, 'carol', 'completed');
      expect(await store.runs.requestCancel(done.run.id, done.user.id)).toMatchObject({
        status: 'completed',
        cancelRequested: false,
      });
    });

    it('a run asked to cancel while driven ends cancelled when it pauses, instead of waiting for a person', async () => {
      const { store } = fixture();
      const { user, run } = await enqueue(store);
      const leased = await store.queue.leaseNext('w', LEASE_MS);
      await store.runs.requestCancel(run.id, user.id);
      const paused = await store.queue.pause(run.id, {
        owner: 'w',
        state: {
          version: 1,
          runId: run.id,
          agent: 'assistant',
          model: 'scripted',
          messages: [],
          turns: 1,
          activeMs: 0,
          startedAt: leased?.run.createdAt ?? '',
          emittedVars: {},
          traces: [],
          usage: { inputTokens: 0, outputTokens: 0, thoughtTokens: 0, totalTokens: 0 },
          alwaysApproved: [],
          nudged: false,
          status: 'paused',
        },
        summary: 'Waiting for approval.',
        message: 'I need your approval to: x',
        approvals: [],
      });
      expect(paused?.run).toMatchObject({ status: 'cancelled', errorCode: 'cancelled' });
      expect(await store.approvals.list(user.id, { status: 'pending' })).toEqual([]);
    });

    it('a checkpoint keeps state and events together, and only from the run’s owner', async () => {
      const { store } = fixture();
      const { user, run } = await enqueue(store);
      const leased = await store.queue.leaseNext('w', LEASE_MS);
      const state = {
        version: 1 as const,
        runId: run.id,
        agent: 'assistant',
        model: 'scripted',
        messages: [],
        turns: 2,
        activeMs: 0,
        startedAt: leased?.run.createdAt ?? '',
        emittedVars: {},
        traces: [],
        usage: { inputTokens: 0, outputTokens: 0, thoughtTokens: 0, totalTokens: 0 },
        alwaysApproved: [],
        nudged: false,
        status: 'running' as const,
      };
      const events = (firstSeq: number, type: string) => ({
        firstSeq,
        events: [sampleEvent(run.id, type)],
      });
      // Another process cannot write its state or events over the owner's.
      expect(
        await store.queue.checkpoint(run.id, {
          owner: 'intruder',
          state: { ...state, turns: 9 },
          events: events(1, 'forged'),
        }),
      ).toBe(false);
      expect(
        await store.queue.checkpoint(run.id, {
          owner: 'w',
          state,
          events: events(1, 'run_started'),
        }),
      ).toBe(true);
      const kept = await store.runs.get(run.id, user.id);
      expect(kept).toMatchObject({ eventSeq: 1 });
      expect(await kept?.state?.read()).toMatchObject({ turns: 2 });
      expect((await store.events.read(run.id)).map((e) => e.event.type)).toEqual(['run_started']);
      // A checkpoint with no new events keeps the log where it was.
      expect(
        await store.queue.checkpoint(run.id, { owner: 'w', state: { ...state, turns: 3 } }),
      ).toBe(true);
      const again = await store.runs.get(run.id, user.id);
      expect(again?.eventSeq).toBe(1);
      expect(await again?.state?.read()).toMatchObject({ turns: 3 });
    });

    it('resolving the last approval of a batch queues the run with the decisions, in the same transaction', async () => {
      const { store } = fixture();
      const { user, run, approval } = await seedApproval(store);
      const resolved = await store.approvals.resolve(approval.id, {
        userId: user.id,
        decision: 'approve_once',
      });
      expect(resolved).toMatchObject({ ok: true, resumed: true });
      const queued = await store.runs.get(run.id, user.id);
      expect(queued).toMatchObject({
        status: 'queued',
        job: { kind: 'resume', decisions: { call_1: { kind: 'approve' } } },
      });
      expect((await store.queue.leaseNext('w', LEASE_MS))?.run).toMatchObject({
        id: run.id,
        status: 'executing',
      });
    });

    it('an approval that no longer matches its call is stale: the run resumes to ask again, the call not run', async () => {
      const { store } = fixture();
      const { user, run, approval, action } = await seedApproval(store);
      await store.approvals.resolve(approval.id, {
        userId: user.id,
        decision: 'approve_once',
        matches: false,
      });
      expect((await store.approvals.get(approval.id, user.id))?.status).toBe('stale');
      expect((await store.actions.get(action.id))?.status).toBe('awaiting_confirmation');
      const job = (await store.runs.get(run.id, user.id))?.job;
      expect(job).toMatchObject({ kind: 'resume', decisions: { call_1: { kind: 'ask_again' } } });
    });

    it('an approval resumes the run with what it is bound to', async () => {
      const { store } = fixture();
      const { user, run, approval } = await seedApproval(store);
      await store.approvals.resolve(approval.id, { userId: user.id, decision: 'approve_once' });
      const job = (await store.runs.get(run.id, user.id))?.job;
      expect(job).toMatchObject({
        kind: 'resume',
        decisions: {
          call_1: {
            kind: 'approve',
            binding: {
              tool: approval.tool,
              inputHash: approval.inputHash,
              definitionHash: approval.definitionHash,
            },
          },
        },
      });
    });
  });

  describe('cancellation', () => {
    it('an aborted signal stops reads and writes before they start', async (ctx) => {
      const { store, db } = tablesOf(fixture(), ctx);
      const { user, run, approval } = await seedApproval(store);
      const signal = AbortSignal.abort();
      await expect(store.runs.get(run.id, user.id, { signal })).rejects.toThrow();
      await expect(
        store.threads.create({ userId: user.id, title: 'x' }, { signal }),
      ).rejects.toThrow();
      await expect(
        store.approvals.resolve(
          approval.id,
          {
            userId: user.id,
            decision: 'approve_once',
          },
          { signal },
        ),
      ).rejects.toThrow();
      await expect(store.audit.append({ message: 'x' }, { signal })).rejects.toThrow();
      expect(await db.selectFrom('threads').selectAll().execute()).toHaveLength(1);
      expect((await store.approvals.get(approval.id, user.id))?.status).toBe('pending');
    });
  });
}
