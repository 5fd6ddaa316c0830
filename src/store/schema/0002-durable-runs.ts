import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { StoreDialect } from '../store-context.js';

// Frozen: later changes go into a new migration, never into this one.
const OLD_ACTION_CHECK = `'rejected')`;
const NEW_ACTION_CHECK = `'rejected', 'interrupted')`;
const ACTION_STATUSES = [
  'planned',
  'awaiting_confirmation',
  'executing',
  'completed',
  'failed',
  'rejected',
  'interrupted',
];

/**
 * Runs become durable jobs, so they outlive the process that started them: an owner and a lease renewed by a
 * heartbeat, the next step to take (`job`), and a cancel flag the owner
 * polls. Actions gain `interrupted`: an effect whose outcome is unknown.
 */
export function durableRunsMigration(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('runs').addColumn('owner', 'text').execute();
      await db.schema.alterTable('runs').addColumn('lease_until', 'text').execute();
      await db.schema.alterTable('runs').addColumn('job', 'text').execute();
      await db.schema
        .alterTable('runs')
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('runs_owner_idx').on('runs').columns(['owner']).execute();
      // Runs an older version left mid-flight have no job to resume from: they end here
      // (as that version's start-up recovery would have ended them), never looping.
      await sql`update runs set status = 'failed', error_code = 'interrupted' where status in ('queued', 'planning', 'executing') and job is null`.execute(
        db,
      );
      await sql`update actions set status = 'failed', error_code = 'interrupted' where status = 'executing'`.execute(
        db,
      );
      if (dialect === 'postgres') {
        await sql`alter table actions drop constraint if exists actions_status_check`.execute(db);
        await sql`alter table actions add constraint actions_status_check check (status in (${sql.join(
          ACTION_STATUSES.map((s) => sql.lit(s)),
        )}))`.execute(db);
        return;
      }
      // SQLite cannot alter a CHECK. Rebuilding the table would cascade-delete approvals, so
      // this uses SQLite's documented in-place schema edit (widening a CHECK changes no
      // stored data), inside the migration's own BEGIN IMMEDIATE.
      const version = await sql<{ schema_version: number }>`pragma schema_version`.execute(db);
      const current = Number(version.rows[0]?.schema_version ?? 0);
      await sql`pragma writable_schema = on`.execute(db);
      await sql`update sqlite_schema set sql = replace(sql, ${OLD_ACTION_CHECK}, ${NEW_ACTION_CHECK}) where type = 'table' and name = 'actions'`.execute(
        db,
      );
      await sql.raw(`pragma schema_version = ${current + 1}`).execute(db);
      await sql`pragma writable_schema = off`.execute(db);
      // A table whose text differs from the one 0001 wrote would be left narrow: say so, and
      // roll the whole migration back, rather than fail every takeover later.
      const widened = await sql<{
        sql: string;
      }>`select sql from sqlite_schema where type = 'table' and name = 'actions'`.execute(db);
      if (!widened.rows[0]?.sql.includes(NEW_ACTION_CHECK))
        throw new Error('The actions table does not have the CHECK this migration widens.');
    },
  };
}
