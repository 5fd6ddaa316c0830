import { describe, expect, it } from 'vitest';
import type { RunChange, Store } from '../../store/types.js';
import { ManualClock } from '../../util/testing/manual-clock.js';
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

  it('a waiter with no news looks again after pollMs on its clock, and not before', async () => {
    const clock = new ManualClock();
    const changes = await createRunChanges({ events: {} } as unknown as Store, { clock });
    let woke = false;
    const waiting = changes.next(QUEUE, 1_000).then(() => (woke = true));
    await clock.waiting();
    clock.advance(999);
    // Its poll still sleeps: nothing woke it a millisecond early.
    expect(clock.pending).toBe(1);
    expect(woke).toBe(false);
    clock.advance(1);
    await waiting;
    expect(woke).toBe(true);
    await changes.close();
  });

  it('a waiter woken by a change stops its poll', async () => {
    const clock = new ManualClock();
    const changes = await createRunChanges({ events: {} } as unknown as Store, { clock });
    const waiting = changes.next('r1', 60_000);
    await clock.waiting();
    changes.publish({ kind: 'run', runId: 'r1' });
    await waiting;
    // No sleep left behind: an idle worker polling for hours gathers none.
    expect(clock.pending).toBe(0);
    await changes.close();
  });
});
