import type { Dialect } from 'kysely';
import type { Pool, PoolClient } from 'pg';
import { optionalImport } from '../util/optional-import.js';
import type { QueryCounter } from './query-counter.js';

export const POSTGRES = { needs: 'A PostgreSQL store needs', packages: ['kysely', 'pg'] };

/** A connection attempt gives up after this long (a host that drops packets would hang it otherwise). */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The pool and its dialect. PostgreSQL going away must never end the
 * process: `pg` emits 'error' on a pool's idle clients and on every client
 * a caller holds (Kysely between two statements of a transaction, the
 * LISTEN connection), and an 'error' nobody listens to is thrown. Each
 * client gets a listener the moment it exists; the failed query or the
 * next one reports the loss to its caller, and the pool drops the client
 * when it comes back (it is no longer queryable).
 */
export async function postgresDialect(
  url: string,
  max: number,
  counter?: QueryCounter,
): Promise<{ dialect: Dialect; pool: Pool }> {
  const [{ PostgresDialect }, { default: pg }] = await optionalImport(
    () => Promise.all([import('kysely'), import('pg')]),
    POSTGRES,
  );
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Notices a server that vanished without closing the socket (a cut network).
    keepAlive: true,
  });
  pool.on('error', ignoreLostConnection);
  pool.on('connect', (client) => {
    client.on('error', ignoreLostConnection);
    if (counter) countQueries(client, counter);
  });
  return { dialect: new PostgresDialect({ pool }), pool };
}

/** The loss reaches whoever uses the client next, as a failed query; here it only must not throw. */
function ignoreLostConnection(): void {}

function countQueries(client: PoolClient, counter: QueryCounter): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const counted = (...args: unknown[]): unknown => {
    const text = args[0];
    counter.observe(
      client,
      typeof text === 'string' ? text : String((text as { text?: string }).text),
    );
    return query(...args);
  };
  (client as unknown as { query: typeof counted }).query = counted;
}
