import { describe, expect, it } from 'vitest';
import type { RunChange, Store } from '../../store/types.js';
import { createRunChanges, QUEUE } from './run-changes.js';

/** A store whose subscription the test drives by hand. */
function subscribable(): { store: Store; send: (change: RunChange) => void } {
  let listener: (change: RunChange) => void = () => undefined;
  const store = {
    events: {
      subscribe: (next: (change: RunChange) => void) => {
        listener = next;
        return Promise.resolve(() => Promise.resolve());
      },
    },
  } as unknown as Store;
  return { store, send: (change) => listener(change) };
}

describe('run changes', () => {
  it('a resync (LISTEN back after a loss) wakes every waiter; a run change only its own', async () => {
    const { store, send } = subscribable();
    const changes = await createRunChanges(store);
    const woken: string[] = [];
    const wait = (target: string | typeof QUEUE, name: string) =>
      changes.next(target, 60_000).then(() => void woken.push(name));
    const waits = [wait('r1', 'r1'), wait('r2', 'r2'), wait(QUEUE, 'queue')];
    send({ kind: 'run', runId: 'r1' });
    await waits[0];
    expect(woken).toEqual(['r1']);
    send({ kind: 'resync' });
    await Promise.all(waits);
    expect(woken.sort()).toEqual(['queue', 'r1', 'r2']);
    await changes.close();
  });
});
