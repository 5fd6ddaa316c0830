import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openKyselyStore } from '../open-store.js';
import { sqliteAtMigration } from '../testing/sqlite-at-migration.js';

it('0008 gives an older thread the agent of its first run, and none to a thread that never ran', async () => {
  const { file, db } = await sqliteAtMigration('0007_agent_grants');
  const time = (s: number) => new Date(s * 1000).toISOString();
  await sql`insert into users (id, name, created_at) values ('u1', 'ann', ${time(0)})`.execute(db);
  for (const thread of ['t1', 't2'])
    await sql`insert into threads (id, user_id, title, message_seq, created_at, updated_at)
      values (${thread}, 'u1', 'x', 0, ${time(0)}, ${time(0)})`.execute(db);
  await sql`insert into definitions (hash, snapshot, created_at) values ('h1', '{}', ${time(0)})`.execute(
    db,
  );
  for (const [id, agent, at] of [
    ['r2', 'assistant', 2],
    ['r1', 'mailer', 1],
  ] as const)
    await sql`insert into runs (id, thread_id, user_id, agent, status, definition_hash, summary,
      model, usage, event_seq, created_at, updated_at)
      values (${id}, 't1', 'u1', ${agent}, 'completed', 'h1', '', 'm', '{}', 0, ${time(at)}, ${time(at)})`.execute(
      db,
    );
  await db.destroy();

  const store = await openKyselyStore({ url: file });
  try {
    expect((await store.threads.get('t1', 'u1'))?.agent).toBe('mailer');
    expect(await store.threads.get('t2', 'u1')).not.toHaveProperty('agent');
  } finally {
    await store.close();
  }
});
