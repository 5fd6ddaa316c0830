import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen: later changes go into a new migration, never into this one.
const RUN_STATUSES = [
  'queued',
  'planning',
  'awaiting_confirmation',
  'executing',
  'completed',
  'failed',
];
const ACTION_STATUSES = [
  'planned',
  'awaiting_confirmation',
  'executing',
  'completed',
  'failed',
  'rejected',
];
const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'];
const DECISIONS = ['reject', 'approve_once', 'approve_and_always_allow_recipient'];
const ROLES = ['user', 'assistant', 'system'];
const GENESIS_HASH = '0'.repeat(64);

/** `column in ('a', 'b')` with literals: DDL takes no bound parameters on PostgreSQL. */
const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

export const initialMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema
      .createTable('threads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('message_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('thread_id', 'text', (c) =>
        c.notNull().references('threads.id').onDelete('cascade'),
      )
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull().check(oneOf('role', ROLES)))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('run_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('messages_thread_seq_unique', ['thread_id', 'seq'])
      .execute();
    await db.schema
      .createTable('runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('thread_id', 'text', (c) =>
        c.notNull().references('threads.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', RUN_STATUSES)))
      .addColumn('definition_snapshot', 'text', (c) => c.notNull())
      .addColumn('definition_hash', 'text', (c) => c.notNull())
      .addColumn('state', 'text')
      .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('usage', 'text', (c) => c.notNull())
      .addColumn('error_code', 'text')
      .addColumn('event_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema
      .createTable('actions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('args_json', 'text', (c) => c.notNull())
      .addColumn('input_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', ACTION_STATUSES)))
      .addColumn('requires_approval', 'integer', (c) => c.notNull())
      .addColumn('output_json', 'text')
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addUniqueConstraint('actions_run_call_unique', ['run_id', 'call_id'])
      .execute();
    await db.schema
      .createTable('approvals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('action_id', 'text', (c) =>
        c.notNull().unique().references('actions.id').onDelete('cascade'),
      )
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('input_hash', 'text', (c) => c.notNull())
      .addColumn('definition_hash', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', APPROVAL_STATUSES)))
      .addColumn('decision', 'text', (c) => c.check(oneOf('decision', DECISIONS)))
      .addColumn('feedback', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('resolved_at', 'text')
      .execute();
    await db.schema
      .createTable('grants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('grants_user_tool_recipient_unique', ['user_id', 'tool', 'recipient'])
      .execute();
    await db.schema
      .createTable('run_events')
      .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('run_events_pk', ['run_id', 'seq'])
      .execute();
    // No foreign keys: the audit log outlives whatever it mentions.
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('seq', 'integer', (c) => c.notNull().unique())
      .addColumn('run_id', 'text')
      .addColumn('action_id', 'text')
      .addColumn('model_name', 'text')
      .addColumn('tool_name', 'text')
      .addColumn('input_hash', 'text')
      .addColumn('policy_decision', 'text')
      .addColumn('approval_id', 'text')
      .addColumn('execution_status', 'text')
      .addColumn('error_code', 'text')
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('prev_hash', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('audit_head')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .execute();
    await sql`insert into audit_head (id, seq, hash) values (1, 0, ${sql.lit(GENESIS_HASH)})`.execute(
      db,
    );
    await createIndexes(db);
  },
};

async function createIndexes(db: Kysely<unknown>): Promise<void> {
  const indexes: Array<[name: string, table: string, columns: string[]]> = [
    ['api_tokens_user_idx', 'api_tokens', ['user_id']],
    ['threads_user_updated_idx', 'threads', ['user_id', 'updated_at']],
    ['runs_user_idx', 'runs', ['user_id']],
    ['runs_thread_idx', 'runs', ['thread_id']],
    ['runs_status_idx', 'runs', ['status']],
    ['actions_status_idx', 'actions', ['status']],
    ['approvals_user_status_idx', 'approvals', ['user_id', 'status']],
    ['approvals_run_idx', 'approvals', ['run_id']],
    ['approvals_batch_idx', 'approvals', ['batch_id']],
    ['audit_log_run_idx', 'audit_log', ['run_id']],
  ];
  for (const [name, table, columns] of indexes)
    await db.schema.createIndex(name).on(table).columns(columns).execute();
}
