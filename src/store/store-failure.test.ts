import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../errors/store-error.js';
import { openKyselyStore } from './open-store.js';
import { asStoreUnavailable, storeOutage } from './store-failure.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('storeOutage', () => {
  it('knows the driver errors that mean "not now"', () => {
    expect(storeOutage(coded('ECONNREFUSED'))).toBe('unreachable');
    expect(storeOutage(coded('UND_ERR_SOCKET'))).toBe('unreachable');
    expect(storeOutage(coded('57P01', 'terminating connection due to administrator command'))).toBe(
      'unreachable',
    );
    expect(storeOutage(coded('08006'))).toBe('unreachable');
    expect(storeOutage(new Error('Connection terminated unexpectedly'))).toBe('unreachable');
    expect(storeOutage(coded('SQLITE_BUSY'))).toBe('unreachable');
    // Dual-stack connects fail as one AggregateError.
    expect(storeOutage(new AggregateError([coded('ECONNREFUSED')]))).toBe('unreachable');
    expect(storeOutage(coded('53100'))).toBe('full');
    expect(storeOutage(coded('SQLITE_FULL'))).toBe('full');
    expect(storeOutage(new Error('write failed', { cause: coded('ENOSPC') }))).toBe('full');
  });

  it('leaves every other failure alone: a constraint or a bug is no outage', () => {
    for (const error of [
      coded('23505', 'duplicate key'),
      coded('SQLITE_CONSTRAINT_UNIQUE'),
      new Error('boom'),
      'ECONNREFUSED',
      null,
    ])
      expect(storeOutage(error)).toBeUndefined();
    expect(asStoreUnavailable(coded('42P01'))).toBeUndefined();
  });
});

describe('a full SQLite database', () => {
  it('fails its writes with StoreUnavailableError (full), and reads still work', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cadre-full-'));
    dirs.push(dir);
    const store = await openKyselyStore({ url: path.join(dir, 'cadre.db') });
    try {
      const user = await store.auth.ensureUser('ann');
      // The file may not grow past what it holds now, plus a few pages: as a full disk does.
      const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(store.db);
      await sql.raw(`pragma max_page_count = ${Number(rows[0]?.page_count) + 4}`).execute(store.db);
      const title = 'x'.repeat(4000);
      const failure = await (async () => {
        for (let i = 0; i < 100; i++) await store.threads.create({ userId: user.id, title });
        return undefined;
      })().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect(failure).toMatchObject({ code: 'store_unavailable', outage: 'full' });
      expect((await store.threads.list(user.id)).length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
