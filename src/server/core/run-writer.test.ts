import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import { openStore } from '../../store/open-store.js';
import { sampleEvent } from '../../store/conformance/conformance-store.js';
import type { Store } from '../../store/types.js';
import { runWriter, type RunWriterOptions } from './run-writer.js';

const event = (type: string): CadreEvent => sampleEvent('', type);

/** A writer for a new run of `userId`'s, not stored yet, owned by `w1`. */
function newRunWriter(
  store: Store,
  userId: string,
  options: Pick<RunWriterOptions, 'flushMs' | 'changed'> & Partial<RunWriterOptions>,
) {
  const runId = crypto.randomUUID();
  const writer = runWriter({
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
  return { runId, writer };
}

describe('run writer (real SQLite)', () => {
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
          save: (input) => {
            writer.event(event('b'));
            return store.queue.save(input);
          },
        },
      };
      const { runId, writer } = newRunWriter(racing, user.id, {
        flushMs: 5,
        changed: () => {
          if (++changes === 2) twice();
        },
      });
      writer.event(event('a'));
      await writer.store();
      expect(writer.stored()).toBe(true);
      await written;
      const read = await store.events.read(runId);
      expect(read.map((e) => (e.event.type === 'custom' ? e.event.name : e.type))).toEqual([
        'a',
        'b',
      ]);
    } finally {
      await store.close();
    }
  });

  it('a closed writer (the process let the run go) delivers and writes nothing more', async () => {
    const store = await openStore({ url: ':memory:' });
    try {
      const user = await store.auth.ensureUser('ann');
      const seen: number[] = [];
      const { runId, writer } = newRunWriter(store, user.id, {
        flushMs: 60_000,
        changed: () => undefined,
        onEvent: (e) => seen.push(e.seq),
      });
      await writer.store();
      writer.event(event('a'));
      writer.close();
      writer.event(event('b'));
      await writer.flush();
      expect(seen).toEqual([1]);
      expect(writer.storedSeq()).toBe(0);
      expect(await store.events.read(runId)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
