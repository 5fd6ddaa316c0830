import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../schema/database.js';
import type { StoreDialect } from '../store-context.js';

type Value = string | number | null;

/**
 * INSERT of whole rows, its SQL written here instead of by Kysely's builder:
 * a run stored as it ends is four INSERTs (thread, messages, run, events),
 * and building and compiling them cost more CPU than SQLite spent running
 * them. Columns are the first row's keys, in order; every row has the same
 * keys and no undefined value (the row types have none optional).
 */
export async function insertRows<T extends 'threads' | 'messages' | 'runs' | 'run_events'>(
  db: Kysely<Database>,
  dialect: StoreDialect,
  table: T,
  rows: readonly Database[T][],
): Promise<void> {
  const first = rows[0];
  if (first === undefined) return;
  const columns = Object.keys(first) as (keyof Database[T] & string)[];
  const parameters: Value[] = [];
  const tuples: string[] = [];
  for (const row of rows) {
    const marks: string[] = [];
    for (const column of columns) {
      parameters.push((row[column] ?? null) as Value);
      marks.push(dialect === 'postgres' ? `$${parameters.length}` : '?');
    }
    tuples.push(`(${marks.join(', ')})`);
  }
  const names = columns.map((column) => `"${column}"`).join(', ');
  await db.executeQuery(
    CompiledQuery.raw(`insert into "${table}" (${names}) values ${tuples.join(', ')}`, parameters),
  );
}
