import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openKyselyStore } from '../open-store.js';
import { sqliteAtMigration } from '../testing/sqlite-at-migration.js';

it('0009 widens the runs CHECK in place and moves runs cancelled before to cancelled', async () => {
  const { file, db } = await sqliteAtMigration('0008_thread_agent');
  const time = new Date(0).toISOString();
  await sql`insert into users (id, name, created_at) values ('u1', 'ann', ${time})`.execute(db);
  await sql`insert into threads (id, user_id, title, message_seq, created_at, updated_at)
    values ('t1', 'u1', 'x', 0, ${time}, ${time})`.execute(db);
  await sql`insert into definitions (hash, snapshot, created_at) values ('h1', '{}', ${time})`.execute(
    db,
  );
  for (const [id, code] of [
    ['r1', 'cancelled'],
    ['r2', 'model_error'],
  ] as const)
    await sql`insert into runs (id, thread_id, user_id, agent, status, definition_hash, summary,
      model, usage, error_code, event_seq, created_at, updated_at)
      values (${id}, 't1', 'u1', 'a', 'failed', 'h1', '', 'm', '{}', ${code}, 0, ${time}, ${time})`.execute(
      db,
    );
  // Before 0009 the status is refused.
  await expect(
    sql`update runs set status = 'cancelled' where id = 'r2'`.execute(db),
  ).rejects.toThrow();
  await db.destroy();

  const store = await openKyselyStore({ url: file });
  try {
    expect((await store.runs.get('r1', 'u1'))?.status).toBe('cancelled');
    expect((await store.runs.get('r2', 'u1'))?.status).toBe('failed');
    await store.runs.update('r2', { status: 'cancelled' });
    expect((await store.runs.get('r2', 'u1'))?.status).toBe('cancelled');
  } finally {
    await store.close();
  }
});
