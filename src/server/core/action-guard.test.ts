import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionCallPart } from '../../model/types.js';
import { openKyselyStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { actionGuard } from './action-guard.js';

// A worker stalls past its lease (a long GC pause, a frozen VM) and another takes its run over.
// The stalled one wakes up mid-turn and reaches a side effect: it must not start it, or the new
// owner (which sees the call as its own) and the stalled one would each have a say on it. Real
// SQLite in memory, leases judged by the store's own clock.
let store: Store;
beforeAll(async () => {
  store = await openKyselyStore({ url: ':memory:' });
});
afterAll(() => store.close());

const MAIL: FunctionCallPart = {
  kind: 'function_call',
  id: 'call-1',
  name: 'gmail_send',
  args: { to: 'bob@example.com', subject: 'Hi' },
};

async function runTakenOver(): Promise<string> {
  const user = await store.auth.ensureUser('ann');
  const queued = await store.queue.enqueue({
    userId: user.id,
    title: 'Mail Bob',
    prompt: 'Mail Bob',
    agent: 'assistant',
    definitionSnapshot: { name: 'assistant' },
    definitionHash: 'a'.repeat(64),
    model: 'scripted',
  });
  if (!queued) throw new Error('nothing queued');
  expect((await store.queue.leaseNext('stalled', 1))?.run.id).toBe(queued.run.id);
  // A real 5 ms: the store judges the 1 ms lease against the real time itself.
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(await store.queue.leaseNext('alive', 60_000)).toMatchObject({ takenOver: true });
  return queued.run.id;
}

describe('ATTACK: a worker that lost its lease reaches a side effect', () => {
  it('cannot claim it: the call is not run there, and the new owner still can', async () => {
    const runId = await runTakenOver();
    const guardOf = (owner: string) =>
      actionGuard(
        { store },
        runId,
        owner,
        () => 'scripted',
        () => false,
      );

    const late = await guardOf('stalled').claim(MAIL);
    expect(late).toMatchObject({ kind: 'known', outcome: { ok: false } });
    const [action] = await store.actions.list(runId);
    expect(action?.status).toBe('planned');

    expect(await guardOf('alive').claim(MAIL)).toEqual({ kind: 'run' });
    expect((await store.actions.list(runId))[0]?.status).toBe('executing');
  });
});
