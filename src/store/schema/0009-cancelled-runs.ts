import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { StoreDialect } from '../store-context.js';

// Frozen: later changes go into a new migration, never into this one.
const OLD_RUN_CHECK = `'completed', 'failed'))`;
const NEW_RUN_CHECK = `'completed', 'failed', 'cancelled'))`;
const RUN_STATUSES = [
  'queued',
  'planning',
  'awaiting_confirmation',
  'executing',
  'completed',
  'failed',
  'cancelled',
];

/**
 * A cancelled run is `cancelled`, no longer `failed` with a `cancelled`
 * code: a person stopping a run is not the run failing. Runs cancelled
 * before are moved over. The CHECK is widened as 0002 widened the actions'.
 */
export function cancelledRunsMigration(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') {
        await sql`alter table runs drop constraint if exists runs_status_check`.execute(db);
        await sql`alter table runs add constraint runs_status_check check (status in (${sql.join(
          RUN_STATUSES.map((s) => sql.lit(s)),
        )}))`.execute(db);
      } else {
        // SQLite cannot alter a CHECK; rebuilding runs would cascade-delete its actions and
        // events, so (as in 0002) the schema text is widened in place, changing no stored data.
        const version = await sql<{ schema_version: number }>`pragma schema_version`.execute(db);
        const current = Number(version.rows[0]?.schema_version ?? 0);
        await sql`pragma writable_schema = on`.execute(db);
        await sql`update sqlite_schema set sql = replace(sql, ${OLD_RUN_CHECK}, ${NEW_RUN_CHECK}) where type = 'table' and name = 'runs'`.execute(
          db,
        );
        await sql.raw(`pragma schema_version = ${current + 1}`).execute(db);
        await sql`pragma writable_schema = off`.execute(db);
        const widened = await sql<{
          sql: string;
        }>`select sql from sqlite_schema where type = 'table' and name = 'runs'`.execute(db);
        if (!widened.rows[0]?.sql.includes(NEW_RUN_CHECK))
          throw new Error('The runs table does not have the CHECK this migration widens.');
      }
      await sql`update runs set status = 'cancelled' where status = 'failed' and error_code = 'cancelled'`.execute(
        db,
      );
    },
  };
}
