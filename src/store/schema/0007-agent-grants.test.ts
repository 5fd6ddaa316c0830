import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openKyselyStore } from '../open-store.js';
import { sqliteAtMigration } from '../testing/sqlite-at-migration.js';

it('0007 gives an older grant to the agent whose approval earned it, and drops one none explains', async () => {
  const { file, db } = await sqliteAtMigration('0006_pending_approvals_page');
  const time = new Date(0).toISOString();
  await sql`insert into users (id, name, created_at) values ('u1', 'ann', ${time})`.execute(db);
  await sql`insert into threads (id, user_id, title, message_seq, created_at, updated_at)
    values ('t1', 'u1', 'x', 0, ${time}, ${time})`.execute(db);
  await sql`insert into definitions (hash, snapshot, created_at) values ('h1', '{}', ${time})`.execute(
    db,
  );
  await sql`insert into runs (id, thread_id, user_id, agent, status, definition_hash, summary,
    model, usage, event_seq, created_at, updated_at)
    values ('r1', 't1', 'u1', 'mailer', 'completed', 'h1', '', 'm', '{}', 0, ${time}, ${time})`.execute(
    db,
  );
  await sql`insert into actions (id, run_id, call_id, tool, args_json, input_hash, status,
    requires_approval, created_at, updated_at)
    values ('a1', 'r1', 'c1', 'gmail_send', '{}', 'x', 'completed', 1, ${time}, ${time})`.execute(
    db,
  );
  await sql`insert into approvals (id, run_id, action_id, call_id, tool, input_hash,
    definition_hash, user_id, batch_id, status, decision, created_at)
    values ('p1', 'r1', 'a1', 'c1', 'gmail_send', 'x', 'h1', 'u1', 'b1', 'approved',
    'approve_and_always_allow_recipient', ${time})`.execute(db);
  await sql`insert into grants (id, user_id, tool, recipient, created_at) values
    ('g1', 'u1', 'gmail_send', 'bob@example.com', ${time}),
    ('g2', 'u1', 'calendar_event_create', 'bob@example.com', ${time})`.execute(db);
  await db.destroy();

  const store = await openKyselyStore({ url: file });
  try {
    expect(await store.grants.list('u1')).toEqual([
      {
        id: 'g1',
        userId: 'u1',
        agent: 'mailer',
        tool: 'gmail_send',
        recipient: 'bob@example.com',
        createdAt: time,
        setBy: 'ann',
      },
    ]);
  } finally {
    await store.close();
  }
});
