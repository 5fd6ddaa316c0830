import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

interface OldGrant {
  id: string;
  user_id: string;
  tool: string;
  recipient: string;
  created_at: string;
}

/**
 * A grant belongs to the agent that earned it (and records who set it): an
 * "always allow" given to one agent no longer lets every agent of the user
 * reach that recipient. SQLite cannot change a unique constraint in place,
 * so the table is rebuilt (the same DDL on both dialects). Older grants go to
 * each agent that had an "always allow" approved for that tool; a grant no
 * such approval explains is dropped, so the user is asked once more rather
 * than trusted wider than they chose.
 */
export const agentGrantsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('agent_grants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('set_by', 'text')
      .addUniqueConstraint('grants_user_agent_tool_recipient_unique', [
        'user_id',
        'agent',
        'tool',
        'recipient',
      ])
      .execute();
    const old =
      await sql<OldGrant>`select id, user_id, tool, recipient, created_at from grants`.execute(db);
    const earners = await sql<{ user_id: string; tool: string; agent: string; name: string }>`
      select distinct a.user_id, a.tool, r.agent, u.name from approvals a
      join runs r on r.id = a.run_id join users u on u.id = a.user_id
      where a.decision = 'approve_and_always_allow_recipient'`.execute(db);
    for (const grant of old.rows) {
      const agents = earners.rows.filter(
        (e) => e.user_id === grant.user_id && e.tool === grant.tool,
      );
      for (const [index, earner] of agents.entries())
        await sql`insert into agent_grants (id, user_id, agent, tool, recipient, created_at, set_by)
          values (${index === 0 ? grant.id : `${grant.id}-${index}`}, ${grant.user_id},
          ${earner.agent}, ${grant.tool}, ${grant.recipient}, ${grant.created_at}, ${earner.name})`.execute(
          db,
        );
    }
    await db.schema.dropTable('grants').execute();
    await db.schema.alterTable('agent_grants').renameTo('grants').execute();
  },
};
