import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import type { SaveRun, Store } from '../types.js';
import { sampleEvent, tablesOf, type CurrentFixture } from './conformance-store.js';

const LEASE_MS = 60_000;

const event = (type: string): CadreEvent => sampleEvent('', type);

async function recording(
  store: Store,
  outcome: SaveRun['outcome'],
  thread?: { id: string },
): Promise<SaveRun> {
  const user = await store.auth.ensureUser('alice');
  return {
    runId: crypto.randomUUID(),
    userId: user.id,
    thread: thread
      ? { id: thread.id, title: '', existing: true }
      : { id: crypto.randomUUID(), title: 'Hello', existing: false },
    prompt: 'Hello',
    agent: 'assistant',
    definitionSnapshot: { name: 'assistant' },
    definitionHash: 'd'.repeat(64),
    model: 'scripted',
    events: [event('run_started'), event('model_text')],
    outcome,
  };
}

const finished = {
  kind: 'finished',
  status: 'completed',
  summary: 'Hi!',
  usage: { inputTokens: 1, outputTokens: 2, thoughtTokens: 0, totalTokens: 3 },
  message: 'Hi!',
} as const;

export function recordedCases(fixture: CurrentFixture): void {
  describe('runs stored by the process that drives them', () => {
    it('a finished run is stored whole: thread, prompt and reply, run, events, definition', async (ctx) => {
      const { store, db } = tablesOf(fixture(), ctx);
      const input = await recording(store, finished);
      const stored = await store.queue.save(input);
      expect(stored?.run).toMatchObject({
        id: input.runId,
        status: 'completed',
        summary: 'Hi!',
        eventSeq: 2,
      });
      const messages = await store.threads.listMessages(input.thread.id);
      expect(messages.map((m) => [m.seq, m.role, m.content])).toEqual([
        [1, 'user', 'Hello'],
        [2, 'assistant', 'Hi!'],
      ]);
      const events = await store.events.read(input.runId);
      expect(events.map((e) => [e.seq, e.type, e.event.runId])).toEqual([
        [1, 'run_started', input.runId],
        [2, 'custom', input.runId],
      ]);
      expect(events[1]?.event).toMatchObject({ type: 'custom', name: 'model_text' });
      expect(await store.runs.getDefinition(input.definitionHash)).toEqual({ name: 'assistant' });
      // A second run with the same definition stores no second copy.
      await store.queue.save(await recording(store, finished));
      const copies = await db.selectFrom('definitions').selectAll().execute();
      expect(copies).toHaveLength(1);
    });

    it('runs recorded at the same moment share a commit, and one that fails fails alone', async () => {
      const { store } = fixture();
      const first = await recording(store, finished);
      await store.queue.save(first);
      const inputs = await Promise.all(Array.from({ length: 6 }, () => recording(store, finished)));
      // The fourth reuses a stored run's id: its insert fails inside the shared transaction.
      const clash = { ...(inputs[3] as SaveRun), runId: first.runId };
      const results = await Promise.allSettled(
        inputs.map((input, index) => store.queue.save(index === 3 ? clash : input)),
      );
      expect(results.map((r) => r.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      for (const [index, input] of inputs.entries())
        if (index !== 3)
          expect((await store.events.read(input.runId)).map((e) => e.seq)).toEqual([1, 2]);
      expect(await store.threads.listMessages(clash.thread.id)).toEqual([]);
    });

    it('an owned run carries its start job and lease, continues its thread and ends with its events', async () => {
      const { store } = fixture();
      const first = await store.queue.save(await recording(store, finished));
      if (!first) throw new Error('not stored');
      const input = await recording(
        store,
        { kind: 'owned', owner: 'w1', leaseMs: LEASE_MS, state: null },
        first.thread,
      );
      const stored = await store.queue.save(input);
      expect(stored?.run).toMatchObject({ status: 'planning', owner: 'w1', eventSeq: 2 });
      expect(stored?.run.job).toEqual({ kind: 'start', prompt: 'Hello', messageSeq: 3 });
      // Its owner writes later events with its own numbers, then ends it with the rest.
      expect(
        await store.events.writeOwned(input.runId, 'w1', {
          firstSeq: 3,
          events: [event('tool_call')],
        }),
      ).toHaveLength(1);
      // Nobody else writes to its log while it holds the run.
      expect(
        await store.events.writeOwned(input.runId, 'w2', { firstSeq: 4, events: [event('x')] }),
      ).toBeUndefined();
      expect(
        await store.queue.finish(input.runId, {
          owner: 'w2',
          ...finished,
          events: { firstSeq: 4, events: [event('run_finished')] },
        }),
      ).toBeUndefined();
      const ended = await store.queue.finish(input.runId, {
        owner: 'w1',
        ...finished,
        events: { firstSeq: 4, events: [event('run_finished')] },
      });
      expect(ended).toMatchObject({ status: 'completed', eventSeq: 4, owner: undefined });
      expect((await store.events.read(input.runId)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect((await store.threads.listMessages(first.thread.id)).map((m) => m.seq)).toEqual([
        1, 2, 3, 4,
      ]);
    });

    it('another user’s thread is not continued, and nothing is written', async () => {
      const { store } = fixture();
      const first = await store.queue.save(await recording(store, finished));
      if (!first) throw new Error('not stored');
      const mallory = await store.auth.ensureUser('mallory');
      const input = { ...(await recording(store, finished, first.thread)), userId: mallory.id };
      expect(await store.queue.save(input)).toBeUndefined();
      expect(await store.events.read(input.runId)).toEqual([]);
      expect(await store.threads.readHistory(first.thread.id, mallory.id, 10)).toBeUndefined();
      const alice = await store.auth.ensureUser('alice');
      expect(
        (await store.threads.readHistory(first.thread.id, alice.id, 1))?.map((m) => m.seq),
      ).toEqual([2]);
      const empty = await store.threads.create({ userId: alice.id, title: 'empty' });
      expect(await store.threads.readHistory(empty.id, alice.id, 10)).toEqual([]);
    });

    it('a takeover continues the log where the dead owner left it, and the dead owner writes no more', async () => {
      const { store } = fixture();
      const input = await recording(store, {
        kind: 'owned',
        owner: 'dead',
        leaseMs: 1,
        state: null,
      });
      await store.queue.save(input);
      await store.events.writeOwned(input.runId, 'dead', {
        firstSeq: 3,
        events: [event('a'), event('b')],
      });
      // A real 5 ms, kept: the store judges the 1 ms lease against the real time itself.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const leased = await store.queue.leaseNext('w2', LEASE_MS);
      expect(leased).toMatchObject({ takenOver: true, run: { id: input.runId, eventSeq: 4 } });
      // A late batch from the dead owner is refused, even at numbers nobody has used yet.
      expect(
        await store.events.writeOwned(input.runId, 'dead', {
          firstSeq: 5,
          events: [event('late')],
        }),
      ).toBeUndefined();
      expect((await store.events.read(input.runId)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    });
  });
}
