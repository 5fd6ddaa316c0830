import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A definition snapshot is stored once per hash, not copied into every run:
 * runs keep the hash, and a paused run whose live definition changed reads
 * its snapshot from here.
 */
export const definitionsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('definitions')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('snapshot', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await sql`insert into definitions (hash, snapshot, created_at)
      select definition_hash, min(definition_snapshot), min(created_at) from runs group by definition_hash`.execute(
      db,
    );
    await db.schema.alterTable('runs').dropColumn('definition_snapshot').execute();
  },
};
