import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import { openStore } from '../../store/open-store.js';
import { sampleEvent } from '../../store/testing/store-fixture.js';
import type { Store } from '../../store/types.js';
import { runRecorder, type RecorderOptions } from './run-recorder.js';

const event = (type: string): CadreEvent => sampleEvent('', type);

/** A recorder for a new run of `userId`'s, not stored yet, owned by `w1`. */
function newRunRecorder(
  store: Store,
  userId: string,
  options: Pick<RecorderOptions, 'flushMs' | 'changed'> & Partial<RecorderOptions>,
) {
  const runId = crypto.randomUUID();
  const recorder = runRecorder({
    store,
    runId,
    owner: 'w1',
    leaseMs: 60_000,
    eventSeq: 0,
    unstored: {
      runId,
      userId,
      thread: { id: crypto.randomUUID(), title: 't', existing: false },
      prompt: 'p',
      agent: 'assistant',
      definitionSnapshot: {},
      definitionHash: 'h',
      model: 'm',
    },
    lost: () => undefined,
    ...options,
  });
  return { runId, recorder };
}

describe('run recorder (real SQLite)', () => {
  it('events that happen while the run is being stored still reach the store', async () => {
    const store = await openStore({ url: ':memory:' });
    try {
      const user = await store.auth.ensureUser('ann');
      let changes = 0;
      let twice = (): void => undefined;
      // Each write says so through `changed`: the second is the racing event's, flushed.
      const written = new Promise<void>((resolve) => (twice = resolve));
      // The second event happens just as the store takes its batch, while it is being written.
      const racing: Store = {
        ...store,
        queue: {
          ...store.queue,
          record: (input) => {
            recorder.event(event('b'));
            return store.queue.record(input);
          },
        },
      };
      const { runId, recorder } = newRunRecorder(racing, user.id, {
        flushMs: 5,
        changed: () => {
          if (++changes === 2) twice();
        },
      });
      recorder.event(event('a'));
      await recorder.store();
      expect(recorder.stored()).toBe(true);
      await written;
      expect((await store.events.read(runId)).map((e) => e.type)).toEqual(['a', 'b']);
    } finally {
      await store.close();
    }
  });

  it('a closed recorder (the process let the run go) delivers and writes nothing more', async () => {
    const store = await openStore({ url: ':memory:' });
    try {
      const user = await store.auth.ensureUser('ann');
      const seen: number[] = [];
      const { runId, recorder } = newRunRecorder(store, user.id, {
        flushMs: 60_000,
        changed: () => undefined,
        onEvent: (e) => seen.push(e.seq),
      });
      await recorder.store();
      recorder.event(event('a'));
      recorder.close();
      recorder.event(event('b'));
      await recorder.flush();
      expect(seen).toEqual([1]);
      expect(recorder.storedSeq()).toBe(0);
      expect(await store.events.read(runId)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
