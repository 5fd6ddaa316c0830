import type { Kysely } from 'kysely';
import {
  Migrator,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely/migration';
import { ConfigError } from '../../errors/cadre-error.js';
import { initialMigration } from './0001-initial.js';
import { durableRunsMigration } from './0002-durable-runs.js';
import { auditKeyMigration } from './0003-audit-key.js';
import { definitionsMigration } from './0004-definitions.js';
import { tokenRevocationMigration } from './0005-token-revocation.js';
import { pendingApprovalsPageMigration } from './0006-pending-approvals-page.js';
import { agentGrantsMigration } from './0007-agent-grants.js';
import { threadAgentMigration } from './0008-thread-agent.js';
import { cancelledRunsMigration } from './0009-cancelled-runs.js';
import { approvalBindingMigration } from './0010-approval-binding.js';
import { writeTransaction, type StoreDialect } from '../store-context.js';
import type { Database } from './database.js';

/** The one migration set, in code so it ships inside the package (no migration folder to find). */
const migrations = (dialect: StoreDialect): Record<string, Migration> => ({
  '0001_initial': initialMigration,
  '0002_durable_runs': durableRunsMigration(dialect),
  '0003_audit_key': auditKeyMigration,
  '0004_definitions': definitionsMigration,
  '0005_token_revocation': tokenRevocationMigration,
  '0006_pending_approvals_page': pendingApprovalsPageMigration,
  '0007_agent_grants': agentGrantsMigration,
  '0008_thread_agent': threadAgentMigration,
  '0009_cancelled_runs': cancelledRunsMigration(dialect),
  '0010_approval_binding': approvalBindingMigration,
});

/**
 * Brings the schema up to date; safe when several processes open the store at
 * once. PostgreSQL: Kysely's migrator takes an advisory lock and runs in a
 * transaction. SQLite: Kysely takes no lock there, so the whole migration runs
 * inside BEGIN IMMEDIATE, which also makes it all-or-nothing.
 */
export async function migrateToLatest(db: Kysely<Database>, dialect: StoreDialect): Promise<void> {
  const run = async (target: Kysely<Database>) =>
    throwOnError(await migrator(target, dialect).migrateToLatest());
  // Throwing inside the SQLite transaction rolls a failed migration back.
  if (dialect === 'postgres') await run(db);
  else await writeTransaction({ db, dialect }, run);
}

function throwOnError({ error, results }: MigrationResultSet): void {
  if (error === undefined) return;
  const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
  throw new ConfigError(`The database schema could not be updated (migration ${failed} failed).`, {
    cause: error,
  });
}

/** The migrator over this set (tests step through it one migration at a time). */
export function migrator(db: Kysely<Database>, dialect: StoreDialect): Migrator {
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations(dialect)) };
  return new Migrator({
    db,
    provider,
    migrationTableName: 'cadre_migrations',
    migrationLockTableName: 'cadre_migrations_lock',
  });
}
