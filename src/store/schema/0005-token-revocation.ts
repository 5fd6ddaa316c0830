import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Tokens can be revoked (`cadre token revoke`). The row is kept, marked with
 * the time, so `cadre token list` still shows who held it and when it was
 * last used. Same DDL on SQLite and PostgreSQL; existing tokens stay valid.
 */
export const tokenRevocationMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('api_tokens').addColumn('revoked_at', 'text').execute();
  },
};
