import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoredDataError } from '../errors/stored-data-error.js';
import { sampleRunState, seedRun } from './conformance/conformance-store.js';
import type { KyselyStore } from './kysely-store.js';
import { openKyselyStore } from './open-store.js';

const state = sampleRunState('paused');
const job = { kind: 'resume' as const, decisions: { c1: { kind: 'approve' as const } } };

let store: KyselyStore;
beforeAll(async () => {
  store = await openKyselyStore({ url: ':memory:' });
});
afterAll(() => store.close());

/** A run with a whole state and job, then one column overwritten by hand, as a damaged row. */
async function damagedRun(column: 'state' | 'job', text: string) {
  const { user, run } = await seedRun(store);
  await store.runs.update(run.id, { state, job });
  await sql`update runs set ${sql.ref(column)} = ${text} where id = ${run.id}`.execute(store.db);
  return { user, run };
}

async function refusal(read: () => Promise<unknown>): Promise<StoredDataError> {
  const error = await read().then(
    () => new Error('a damaged row was read as if whole'),
    (e: unknown) => e,
  );
  if (error instanceof StoredDataError) return error;
  throw error;
}

const rawColumn = async (runId: string, column: 'state' | 'job') =>
  (
    await sql<
      Record<string, string>
    >`select ${sql.ref(column)} from runs where id = ${runId}`.execute(store.db)
  ).rows[0]?.[column];

describe('ATTACK: a run row damaged in the database is refused naming the field', () => {
  it('a state whose messages are not a list: the run reads, its state is refused when read', async () => {
    const damaged = JSON.stringify({ ...state, messages: 'all of them' });
    const { user, run } = await damagedRun('state', damaged);
    const read = await store.runs.get(run.id, user.id);
    // Nothing else is lost: the rest of the run reads, and the row keeps what it held.
    expect(read).toMatchObject({ id: run.id, agent: 'assistant', job });
    const error = await refusal(() => read!.state!.read());
    // The state names its run (`runId: 'r'`) and the field that is wrong.
    expect(error.message).toMatch(/^The stored run state of run r is not valid: messages: /);
    expect(await rawColumn(run.id, 'state')).toBe(damaged);
  });

  it('a state that is not JSON is refused as such, not thrown as a SyntaxError', async () => {
    const { user, run } = await damagedRun('state', '{"version":1,"messages":[');
    const read = await store.runs.get(run.id, user.id);
    const error = await refusal(() => read!.state!.read());
    expect(error.message).toBe(
      `The stored run state of run ${run.id} is not valid: (top): not JSON.`,
    );
  });

  it('a resume job whose decision is of no known kind: reading the run refuses it, naming the decision', async () => {
    const damaged = JSON.stringify({ kind: 'resume', decisions: { c1: { kind: 'run_anyway' } } });
    const { user, run } = await damagedRun('job', damaged);
    const error = await refusal(() => store.runs.get(run.id, user.id));
    expect(error.message).toMatch(
      new RegExp(`^The stored run job of run ${run.id} is not valid: decisions\\.c1\\.kind: `),
    );
    expect(await rawColumn(run.id, 'job')).toBe(damaged);
  });

  it('a start job without its prompt is refused, and a whole run beside it still reads', async () => {
    const { user, run } = await damagedRun('job', JSON.stringify({ kind: 'start', messageSeq: 1 }));
    const whole = await seedRun(store, 'bob');
    await store.runs.update(whole.run.id, { state, job });
    const error = await refusal(() => store.runs.get(run.id, user.id));
    expect(error.message).toContain(': prompt: ');
    const other = await store.runs.get(whole.run.id, whole.user.id);
    expect(other?.job).toEqual(job);
    expect(await other?.state?.read()).toEqual(state);
  });

  it('a queued run whose job is damaged does not head the queue forever: it is leased with the refusal, the next run after it', async () => {
    // A store of its own: the runs above would be leased first.
    const store = await openKyselyStore({ url: ':memory:' });
    try {
      const damaged = await seedRun(store, 'carol', 'queued');
      const whole = await seedRun(store, 'dave', 'queued');
      await store.runs.update(whole.run.id, {
        job: { kind: 'start', prompt: 'Hi', messageSeq: 1 },
      });
      await sql`update runs set job = ${'{"kind":"start"}'} where id = ${damaged.run.id}`.execute(
        store.db,
      );
      const first = await store.queue.leaseNext('w', 60_000);
      expect(first?.run.id).toBe(damaged.run.id);
      expect(first?.run.job).toBeUndefined();
      expect(first?.damaged?.message).toMatch(
        new RegExp(`^The stored run job of run ${damaged.run.id} is not valid: prompt: `),
      );
      const second = await store.queue.leaseNext('w', 60_000);
      expect(second?.run.id).toBe(whole.run.id);
      expect(second?.damaged).toBeUndefined();
      expect(second?.run.job).toEqual({ kind: 'start', prompt: 'Hi', messageSeq: 1 });
    } finally {
      await store.close();
    }
  });

  it('ATTACK: a queued run whose usage is damaged is leased with the refusal too, not thrown at every lease', async () => {
    const store = await openKyselyStore({ url: ':memory:' });
    try {
      const damaged = await seedRun(store, 'erin', 'queued');
      await sql`update runs set usage = ${'{"inputTokens":"many"}'} where id = ${damaged.run.id}`.execute(
        store.db,
      );
      const leased = await store.queue.leaseNext('w', 60_000);
      expect(leased?.run.id).toBe(damaged.run.id);
      expect(leased?.damaged?.message).toMatch(/run usage/);
      expect(leased?.run.usage.totalTokens).toBe(0);
    } finally {
      await store.close();
    }
  });
});
