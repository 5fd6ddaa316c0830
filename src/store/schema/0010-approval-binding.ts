import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen: later changes go into a new migration, never into this one.
const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'stale'];
const DECISIONS = ['reject', 'approve_once', 'approve_and_always_allow_recipient'];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

/**
 * Approvals are bound to the tool's side-effect class too (`tool_class`), and
 * one that no longer matches its call is `stale`: the person is asked again,
 * so an action may now have several approvals over time, but still only one
 * pending (a partial unique index). SQLite cannot change a CHECK or drop a
 * column's UNIQUE in place, so the table is rebuilt (nothing references it;
 * the same DDL on both dialects). Older approvals have no class: resuming
 * with one asks the person again rather than trusting it.
 */
export const approvalBindingMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('bound_approvals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('action_id', 'text', (c) =>
        c.notNull().references('actions.id').onDelete('cascade'),
      )
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('input_hash', 'text', (c) => c.notNull())
      .addColumn('definition_hash', 'text', (c) => c.notNull())
      .addColumn('tool_class', 'text')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', APPROVAL_STATUSES)))
      .addColumn('decision', 'text', (c) => c.check(oneOf('decision', DECISIONS)))
      .addColumn('feedback', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('resolved_at', 'text')
      .execute();
    await sql`insert into bound_approvals (id, run_id, action_id, call_id, tool, input_hash,
      definition_hash, tool_class, user_id, batch_id, status, decision, feedback, created_at, resolved_at)
      select id, run_id, action_id, call_id, tool, input_hash, definition_hash, null, user_id,
      batch_id, status, decision, feedback, created_at, resolved_at from approvals`.execute(db);
    await db.schema.dropTable('approvals').execute();
    await db.schema.alterTable('bound_approvals').renameTo('approvals').execute();
    await db.schema
      .createIndex('approvals_pending_action_unique')
      .on('approvals')
      .column('action_id')
      .unique()
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    const indexes: Array<[name: string, columns: string[]]> = [
      ['approvals_user_status_id_idx', ['user_id', 'status', 'id']],
      ['approvals_run_idx', ['run_id']],
      ['approvals_batch_idx', ['batch_id']],
      ['approvals_action_idx', ['action_id']],
    ];
    for (const [name, columns] of indexes)
      await db.schema.createIndex(name).on('approvals').columns(columns).execute();
  },
};
