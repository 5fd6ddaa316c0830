import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A thread remembers its agent: a follow-up that names none goes on with
 * it, rather than with the server's default agent. Older threads take the
 * agent of their first run (threads that never ran keep none, and go on
 * with the default agent, as before). Same DDL on SQLite and PostgreSQL.
 */
export const threadAgentMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('threads').addColumn('agent', 'text').execute();
    await sql`update threads set agent = (
      select runs.agent from runs where runs.thread_id = threads.id
      order by runs.created_at, runs.id limit 1
    )`.execute(db);
  },
};
