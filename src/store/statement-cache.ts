import type { SqliteDatabase, SqliteStatement } from 'kysely';

const MAX_STATEMENTS = 500;

/**
 * Kysely prepares every query afresh; SQLite statements can be reused, and
 * preparing is a measurable part of each request. The connection runs one
 * query at a time, so a statement is never in use twice.
 */
export function withStatementCache(
  database: SqliteDatabase,
  /** Sees each statement as it is about to run (Kysely prepares once per execution). */
  observe?: (sql: string) => void,
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      observe?.(sql);
      const known = statements.get(sql);
      if (known) return known;
      // Queries are built from a few shapes; a flood of distinct text means something else, so start over.
      if (statements.size >= MAX_STATEMENTS) statements.clear();
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      return statement;
    },
  };
}
