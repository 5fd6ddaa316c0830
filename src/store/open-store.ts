import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { SqliteDatabase } from 'kysely';
import { withStatementCache } from './statement-cache.js';
import type { Dialect } from 'kysely';
import { ConfigError } from '../errors/cadre-error.js';
import { optionalImport } from '../util/optional-import.js';
import { assertAuditKey } from './audit-chain.js';
import { outageAwareDialect } from './outage-dialect.js';
import { POSTGRES, postgresDialect } from './postgres-dialect.js';
import type { KyselyStore } from './kysely-store.js';
import type { QueryCounter } from './query-counter.js';
import type { Database } from './schema/database.js';
import type { StoreDialect } from './store-context.js';
import type { Store } from './types.js';

export interface OpenStoreOptions {
  /**
   * `postgres://…` / `postgresql://…`, `:memory:` / `sqlite::memory:`, or a
   * SQLite file (`sqlite:path`, `file:path` or a plain path). Default:
   * `.cadre/cadre.db` under the working directory. The caller reads
   * CADRE_DATABASE_URL; this function reads no environment.
   */
  url?: string;
  /** PostgreSQL pool size (default 10). */
  maxConnections?: number;
  /**
   * Keys the audit chain (HMAC-SHA-256, at least 32 bytes; see loadAuditKey).
   * Without it the store still appends with the public recipe, but
   * audit.verify reports the chain as 'unkeyed'.
   */
  auditKey?: Buffer;
  /** Counts what reaches the driver (benchmarks). */
  queryCounter?: QueryCounter;
}

/** Optional peers: `npm install cadre` leaves them out. */
const SQLITE = { needs: 'A SQLite store needs', packages: ['kysely', 'libsql'] };

export const DEFAULT_SQLITE_PATH = path.join('.cadre', 'cadre.db');
/** How long a SQLite writer waits for another process's write lock before failing. */
const BUSY_TIMEOUT_MS = 5000;

/** Opens the store and brings its schema up to date. */
export function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  return openKyselyStore(options);
}

/** As openStore, with the Kysely handle visible (tests, tooling). */
export async function openKyselyStore(options: OpenStoreOptions = {}): Promise<KyselyStore> {
  const target = parseStoreUrl(options.url);
  // Checked before any connection opens, so a bad key leaks no pool.
  if (options.auditKey) assertAuditKey(options.auditKey);
  // Drivers and Kysely load here, on first use, never when the package is imported.
  const [{ Kysely }, { KyselyStore }, { migrateToLatest }] = await optionalImport(
    () =>
      Promise.all([import('kysely'), import('./kysely-store.js'), import('./schema/migrate.js')]),
    target.kind === 'postgres' ? POSTGRES : SQLITE,
  );
  const { dialect, pool } =
    target.kind === 'postgres'
      ? await postgresDialect(target.url, options.maxConnections ?? 10, options.queryCounter)
      : { dialect: await sqliteDialect(target.file, options.queryCounter), pool: undefined };
  const db = new Kysely<Database>({ dialect: outageAwareDialect(dialect) });
  const store = new KyselyStore(db, target.kind, pool, { auditKey: options.auditKey });
  try {
    await migrateToLatest(store.db, target.kind);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

type StoreTarget =
  { kind: 'postgres'; url: string } | { kind: Extract<StoreDialect, 'sqlite'>; file: string };

export function parseStoreUrl(url: string | undefined): StoreTarget {
  const value = url?.trim() || DEFAULT_SQLITE_PATH;
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value };
  if (value === ':memory:' || value === 'sqlite::memory:')
    return { kind: 'sqlite', file: ':memory:' };
  const file = value.replace(/^(sqlite|file):(\/\/)?/i, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file) || file === '')
    throw new ConfigError(
      `Unsupported database URL '${value.replace(/\/\/[^@/]*@/, '//***@')}': use postgres://…, sqlite:PATH, a file path or :memory:.`,
    );
  return { kind: 'sqlite', file: path.resolve(file) };
}

/** Bytes the WAL file is cut back to once checkpointed (SQLite then reuses it from the start). */
const WAL_SIZE_LIMIT = 4 * 1024 * 1024;

async function sqliteDialect(file: string, counter?: QueryCounter): Promise<Dialect> {
  const [{ SqliteDialect }, { default: Database }] = await optionalImport(
    () => Promise.all([import('kysely'), import('libsql')]),
    SQLITE,
  );
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const database = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  if (file !== ':memory:') {
    // WAL: readers never block the writer. NORMAL sync is durable across process crashes
    // (what exactly-once needs); only an OS crash can lose the last commits.
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    // A large write (a long answer) would otherwise leave a WAL file of its size behind for good.
    database.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  }
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  database.pragma('foreign_keys = ON');
  const observe = counter && ((sql: string) => counter.observe(database, sql));
  return new SqliteDialect({
    database: withStatementCache(database as unknown as SqliteDatabase, observe),
  });
}
