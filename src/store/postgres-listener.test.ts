import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDialect } from './postgres-dialect.js';
import { listenWithReconnect } from './postgres-listener.js';
import { TestPostgres } from './testing/embedded-postgres.js';

const CHANNEL = 'cadre_listener_test';
const postgres = new TestPostgres();
let pool: Pool;

beforeAll(async () => {
  await postgres.start();
  // The pool as the store makes it: a lost connection never ends the process.
  ({ pool } = await postgresDialect(await postgres.createDatabase('cadre_listen'), 4));
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await postgres.stop();
}, 30_000);

/** What the listener reported, in order, with a wait for the next one of a kind. */
function writer() {
  const seen: string[] = [];
  const waiters: Array<{ want: string; resolve: () => void }> = [];
  const add = (entry: string): void => {
    seen.push(entry);
    for (const waiter of waiters.filter((w) => w.want === entry)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const next = (want: string): Promise<void> =>
    seen.includes(want)
      ? Promise.resolve()
      : new Promise((resolve) => waiters.push({ want, resolve }));
  return { seen, add, next };
}

const notify = (payload: string) => pool.query('select pg_notify($1, $2)', [CHANNEL, payload]);

describe('LISTEN lost and regained (embedded PostgreSQL on 127.0.0.1)', () => {
  it('a listening connection killed by the server is replaced, subscribed again, and hears again', async () => {
    const events = writer();
    const stop = await listenWithReconnect({
      pool,
      channels: [CHANNEL],
      onNotification: (channel, payload) => events.add(`${channel}:${payload ?? ''}`),
      onResubscribed: () => events.add('resubscribed'),
      retry: { initialMs: 10, maxMs: 50 },
    });
    try {
      await notify('before');
      await events.next(`${CHANNEL}:before`);

      // The server ends the listening session, as an administrator or a failover would.
      const killed = await pool.query<{ pid: number }>(
        `select pid from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and query = $1`,
        [`listen ${CHANNEL}`],
      );
      expect(killed.rows).toHaveLength(1);
      await pool.query('select pg_terminate_backend($1)', [killed.rows[0]!.pid]);

      // Subscribed again on a new connection: the caller hears it must catch up...
      await events.next('resubscribed');
      const listening = await pool.query<{ pid: number }>(
        `select pid from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and query = $1`,
        [`listen ${CHANNEL}`],
      );
      expect(listening.rows.map((r) => r.pid)).not.toContain(killed.rows[0]!.pid);
      expect(listening.rows).toHaveLength(1);
      // ...and notifications arrive again.
      await notify('after');
      await events.next(`${CHANNEL}:after`);
      expect(events.seen).toEqual([`${CHANNEL}:before`, 'resubscribed', `${CHANNEL}:after`]);
    } finally {
      await stop();
    }
  });
});
