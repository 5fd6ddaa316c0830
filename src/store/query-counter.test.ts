import { describe, expect, it } from 'vitest';
import { openKyselyStore } from './open-store.js';
import { createQueryCounter } from './query-counter.js';
import { sampleEvent } from './conformance/conformance-store.js';

describe('query counter', () => {
  it('counts statements, explicit commits and writes outside a transaction', () => {
    const counter = createQueryCounter();
    const a = {};
    const b = {};
    counter.observe(a, 'begin immediate');
    counter.observe(a, 'insert into t values (1)');
    counter.observe(b, 'update t set x = 1'); // another connection, no transaction: commits alone
    counter.observe(a, 'commit');
    counter.observe(a, 'select * from t');
    counter.observe(a, 'delete from t');
    expect(counter.counts).toEqual({ statements: 6, commits: 3 });
  });

  it('does not count a transaction that only read (a queue poll syncs nothing)', () => {
    const counter = createQueryCounter();
    const a = {};
    counter.observe(a, 'begin immediate');
    counter.observe(a, 'select "id" from "runs" where "status" = ?');
    counter.observe(a, 'commit');
    expect(counter.counts).toEqual({ statements: 3, commits: 0 });
  });

  it('sees every statement a SQLite store sends to the driver', async () => {
    const counter = createQueryCounter();
    const store = await openKyselyStore({ url: ':memory:', queryCounter: counter });
    try {
      const before = { ...counter.counts };
      const user = await store.auth.ensureUser('ada');
      await store.threads.create({ userId: user.id, title: 'x' });
      // auth.ensureUser: insert + select; threads.create: one insert (committed on its own).
      expect(counter.counts.statements - before.statements).toBe(3);
      expect(counter.counts.commits - before.commits).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('shows runs recorded at the same moment sharing one commit (group commit)', async () => {
    const counter = createQueryCounter();
    const store = await openKyselyStore({ url: ':memory:', queryCounter: counter });
    try {
      const user = await store.auth.ensureUser('ada');
      const record = () =>
        store.queue.save({
          runId: crypto.randomUUID(),
          userId: user.id,
          thread: { id: crypto.randomUUID(), title: 'x', existing: false },
          prompt: 'x',
          agent: 'assistant',
          definitionSnapshot: {},
          definitionHash: 'h',
          model: 'm',
          events: [sampleEvent('')],
          outcome: {
            kind: 'finished',
            status: 'completed',
            summary: 'ok',
            usage: { inputTokens: 0, outputTokens: 0, thoughtTokens: 0, totalTokens: 0 },
            message: 'ok',
          },
        });
      await record(); // the definition is written once, here
      const before = counter.counts.commits;
      const stored = await Promise.all(Array.from({ length: 6 }, record));
      expect(stored.every((s) => s?.run.status === 'completed')).toBe(true);
      expect(counter.counts.commits - before).toBe(1);
    } finally {
      await store.close();
    }
  });
});
