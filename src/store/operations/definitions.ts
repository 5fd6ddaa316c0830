import type { Kysely } from 'kysely';
import type { Database } from '../schema/database.js';
import type { StoreContext } from '../store-context.js';

/** Past this many, the memory of written hashes starts over (a hash is then written again, harmlessly). */
const KNOWN_LIMIT = 10_000;

/**
 * Writes a definition snapshot once per hash, inside the caller's
 * transaction. Returns what to call after that transaction commits, so the
 * hash is remembered only once it is really stored.
 */
export async function storeDefinition(
  context: StoreContext,
  db: Kysely<Database>,
  hash: string,
  snapshot: unknown,
  time: string,
): Promise<() => void> {
  if (context.knownDefinitions.has(hash)) return () => undefined;
  await db
    .insertInto('definitions')
    .values({ hash, snapshot: JSON.stringify(snapshot ?? null), created_at: time })
    .onConflict((c) => c.column('hash').doNothing())
    .execute();
  return () => {
    if (context.knownDefinitions.size >= KNOWN_LIMIT) context.knownDefinitions.clear();
    context.knownDefinitions.add(hash);
  };
}

export async function getDefinition(
  context: StoreContext,
  hash: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const row = await context.db
    .selectFrom('definitions')
    .select('snapshot')
    .where('hash', '=', hash)
    .executeTakeFirst({ signal });
  return row === undefined ? undefined : JSON.parse(row.snapshot);
}
