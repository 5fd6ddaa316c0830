import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Pending approvals are read a page at a time, in id order after a cursor.
 * With (user_id, status, id) a page is one index range, however many are
 * pending; the old (user_id, status) index is its prefix, so it goes.
 * Same DDL on SQLite and PostgreSQL.
 */
export const pendingApprovalsPageMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('approvals_user_status_id_idx')
      .on('approvals')
      .columns(['user_id', 'status', 'id'])
      .execute();
    await db.schema.dropIndex('approvals_user_status_idx').execute();
  },
};
