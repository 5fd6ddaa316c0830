import { sql, type Kysely } from 'kysely';
import { GENESIS_HASH } from '../audit-chain.js';
import type { Database } from '../schema/database.js';

const TABLES: ReadonlyArray<keyof Database> = [
  'users',
  'api_tokens',
  'threads',
  'messages',
  'runs',
  'actions',
  'approvals',
  'grants',
  'run_events',
  'audit_log',
  'definitions',
];

/** Empties a migrated PostgreSQL store in ~30 ms (a fresh database from a template takes ~150). */
export async function resetPostgres(db: Kysely<Database>): Promise<void> {
  await sql`truncate ${sql.join(TABLES.map((table) => sql.table(table)))}`.execute(db);
  await db
    .updateTable('audit_head')
    .set({ seq: 0, hash: GENESIS_HASH, mac: null, keyed_from: null })
    .execute();
}
