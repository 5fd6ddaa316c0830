/** Statements and commits that reached the database driver (the server benchmark's figures). */
export interface QueryCounts {
  statements: number;
  /**
   * Commits that wrote: COMMITs of transactions with a write, plus writes that
   * ran outside a transaction (each commits on its own). A read-only
   * transaction (a queue poll) writes nothing to disk, so it is not counted.
   */
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
  // Open transactions, and whether each has written yet.
  const inTransaction = new WeakMap<object, { wrote: boolean }>();
  return {
    counts,
    observe(connection, sql) {
      counts.statements++;
      const head = sql.trimStart().slice(0, 8).toLowerCase();
      const open = inTransaction.get(connection);
      if (head.startsWith('begin')) inTransaction.set(connection, { wrote: false });
      else if (head.startsWith('commit')) {
        inTransaction.delete(connection);
        if (open?.wrote !== false) counts.commits++;
      } else if (head.startsWith('rollback')) inTransaction.delete(connection);
      else if (WRITE.test(sql)) {
        if (open) open.wrote = true;
        else counts.commits++;
      }
    },
  };
}
