import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openKyselyStore } from './open-store.js';
import { describeStoreConformance } from './conformance/index.js';
import { seedApproval } from './conformance/conformance-store.js';

const dirs: string[] = [];
function tempDbFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cadre-sqlite-'));
  dirs.push(dir);
  return path.join(dir, 'cadre.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeStoreConformance('SQLite (file, WAL)', async () => {
  const store = await openKyselyStore({ url: tempDbFile() });
  return { store, db: store.db, cleanup: () => store.close() };
});

describe('SQLite specifics', () => {
  it('opens the file in WAL mode with foreign keys on', async () => {
    const store = await openKyselyStore({ url: `sqlite:${tempDbFile()}` });
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db);
    const keys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(store.db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    expect(keys.rows[0]?.foreign_keys).toBe(1);
    await store.close();
  });

  it('a pending approval survives closing and reopening the file (a restart)', async () => {
    const file = tempDbFile();
    const first = await openKyselyStore({ url: file });
    const { user, approval } = await seedApproval(first);
    await first.close();
    const second = await openKyselyStore({ url: file });
    expect(await second.approvals.list(user.id, { status: 'pending' })).toEqual([approval]);
    await second.close();
  });

  it('works in memory for tests', async () => {
    const store = await openKyselyStore({ url: ':memory:' });
    const user = await store.auth.ensureUser('alice');
    expect(await store.threads.list(user.id)).toEqual([]);
    await store.close();
  });
});
