import type { Pool, PoolClient } from 'pg';
import { pause, retryDelayMs, STORE_RETRY, type RetryDelay } from './retry-delay.js';

export interface ListenOptions {
  pool: Pool;
  /** Fixed identifiers (never user input): LISTEN takes no parameters. */
  channels: readonly string[];
  onNotification: (channel: string, payload: string | undefined) => void;
  /** LISTEN is back after a loss: whatever was notified meanwhile never arrived. */
  onResubscribed: () => void;
  retry?: RetryDelay;
}

/** One LISTEN connection, from connecting to its loss. */
interface Session {
  /** Resolves when the connection is lost or `signal` aborts. */
  ended(signal: AbortSignal): Promise<void>;
  /** Drops the connection (the pool destroys it rather than reuse a listening one). */
  close(): void;
}

/**
 * LISTENs on `channels` for as long as it runs: a connection lost (the
 * database restarted, the network failed) is replaced, with backoff, and
 * subscribed again. Resolves once the first attempt is over, listening or
 * not (callers poll as well); the returned function stops it.
 */
export async function listenWithReconnect(options: ListenOptions): Promise<() => Promise<void>> {
  const stopping = new AbortController();
  let attempted = (): void => undefined;
  const firstAttempt = new Promise<void>((resolve) => (attempted = resolve));
  const loop = (async () => {
    let failures = 0;
    let missed = false;
    while (!stopping.signal.aborted) {
      const session = await openSession(options).catch(() => undefined);
      attempted();
      if (!session) {
        missed = true;
        await pause(retryDelayMs(failures++, options.retry ?? STORE_RETRY), stopping.signal);
        continue;
      }
      failures = 0;
      if (missed) options.onResubscribed();
      await session.ended(stopping.signal);
      session.close();
      missed = true;
    }
  })();
  await firstAttempt;
  return async () => {
    stopping.abort();
    await loop;
  };
}

async function openSession(options: ListenOptions): Promise<Session> {
  const client: PoolClient = await options.pool.connect();
  let lost = false;
  const onLost = new Set<() => void>();
  const lose = (): void => {
    lost = true;
    for (const wake of onLost) wake();
  };
  // Both: 'error' comes for a loss while idle, 'end' for every close.
  client.on('error', lose);
  client.on('end', lose);
  const notified = (message: { channel: string; payload?: string }): void =>
    options.onNotification(message.channel, message.payload);
  client.on('notification', notified);
  const close = (): void => {
    client.off('notification', notified);
    client.release(true);
  };
  try {
    for (const channel of options.channels) await client.query(`listen ${channel}`);
  } catch (error) {
    close();
    throw error;
  }
  return {
    close,
    ended: (signal) =>
      new Promise<void>((resolve) => {
        if (lost || signal.aborted) return resolve();
        const done = (): void => {
          onLost.delete(done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        onLost.add(done);
        signal.addEventListener('abort', done, { once: true });
      }),
  };
}
