import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import Database from 'libsql';
import type { Database as Schema } from '../schema/database.js';
import { migrator } from '../schema/migrate.js';

/**
 * A new SQLite file migrated up to `migration` and no further, for a test
 * to fill as an older version would have before it opens the store (which
 * runs the rest).
 */
export async function sqliteAtMigration(
  migration: string,
): Promise<{ file: string; db: Kysely<Schema> }> {
  const file = join(await mkdtemp(join(tmpdir(), 'cadre-migrate-')), 'cadre.db');
  const db = new Kysely<Schema>({
    dialect: new SqliteDialect({ database: new Database(file) as unknown as SqliteDatabase }),
  });
  const stepped = await migrator(db, 'sqlite').migrateTo(migration);
  if (stepped.error) throw stepped.error;
  return { file, db };
}
