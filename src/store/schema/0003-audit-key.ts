import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The audit chain becomes keyed (HMAC-SHA-256 under a key kept outside the
 * database). The head gains its own MAC, so rolling it back needs the key,
 * and `keyed_from`, the first keyed seq: entries before it keep the public
 * recipe. Both stay null until a process holding the key seals the chain
 * (a migration has no key). Same DDL on SQLite and PostgreSQL.
 */
export const auditKeyMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('audit_head').addColumn('mac', 'text').execute();
    await db.schema.alterTable('audit_head').addColumn('keyed_from', 'integer').execute();
  },
};
