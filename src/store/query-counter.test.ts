import { describe, expect, it } from 'vitest';
import { openKyselyStore } from './open-store.js';
import { createQueryCounter } from './query-counter.js';

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

  it('sees every statement a SQLite store sends to the driver', async () => {
    const counter = createQueryCounter();
    const store = await openKyselyStore({ url: ':memory:', queryCounter: counter });
    try {
      const before = { ...counter.counts };
      const user = await store.ensureUser('ada');
      await store.createThread({ userId: user.id, title: 'x' });
      // ensureUser: insert + select; createThread: one insert (committed on its own).
      expect(counter.counts.statements - before.statements).toBe(3);
      expect(counter.counts.commits - before.commits).toBe(2);
    } finally {
      await store.close();
    }
  });
});
