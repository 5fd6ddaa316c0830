/** Statements and commits that reached the database driver (the server benchmark's figures). */
export interface QueryCounts {
  statements: number;
  /** Explicit COMMITs plus writes that ran outside a transaction (each commits on its own). */
  commits: number;
}

export interface QueryCounter {
  readonly counts: Readonly<QueryCounts>;
  /** `connection` tells transactions apart when several connections are open (PostgreSQL pools). */
  observe(connection: object, sql: string): void;
}

const WRITE = /\b(insert|update|delete)\b/i;

export function createQueryCounter(): QueryCounter {
  const counts: QueryCounts = { statements: 0, commits: 0 };
  const inTransaction = new WeakSet<object>();
  return {
    counts,
    observe(connection, sql) {
      counts.statements++;
      const head = sql.trimStart().slice(0, 8).toLowerCase();
      if (head.startsWith('begin')) inTransaction.add(connection);
      else if (head.startsWith('commit')) {
        inTransaction.delete(connection);
        counts.commits++;
      } else if (head.startsWith('rollback')) inTransaction.delete(connection);
      else if (!inTransaction.has(connection) && WRITE.test(sql)) counts.commits++;
    },
  };
}
