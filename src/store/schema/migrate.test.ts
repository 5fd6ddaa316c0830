import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../util/sha256.js';
import { openKyselyStore } from '../open-store.js';
import type { Database as Schema } from './database.js';
import { migrator } from './migrate.js';

describe('migrations over a database with data in it (real SQLite)', () => {
  it('0002 widens the actions CHECK in place, 0004 moves each snapshot to definitions once', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'cadre-migrate-')), 'cadre.db');
    const db = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: new Database(file) as unknown as SqliteDatabase }),
    });
    const stepped = await migrator(db, 'sqlite').migrateTo('0001_initial');
    expect(stepped.error).toBeUndefined();
    const time = new Date(0).toISOString();
    await sql`insert into users (id, name, created_at) values ('u1', 'ann', ${time})`.execute(db);
    await sql`insert into threads (id, user_id, title, message_seq, created_at, updated_at)
      values ('t1', 'u1', 'x', 0, ${time}, ${time})`.execute(db);
    for (const id of ['r1', 'r2'])
      await sql`insert into runs (id, thread_id, user_id, agent, status, definition_snapshot,
        definition_hash, summary, model, usage, event_seq, created_at, updated_at)
        values (${id}, 't1', 'u1', 'assistant', 'completed', ${'{"name":"assistant"}'}, 'h1', '',
        'm', '{}', 0, ${time}, ${time})`.execute(db);
    await db.destroy();

    const store = await openKyselyStore({ url: file });
    try {
      expect(await store.runs.getDefinition('h1')).toEqual({ name: 'assistant' });
      expect(await store.db.selectFrom('definitions').selectAll().execute()).toHaveLength(1);
      expect((await store.runs.get('r1', 'u1'))?.definitionHash).toBe('h1');
      const action = await store.actions.create({
        runId: 'r1',
        callId: 'c1',
        tool: 'gmail_send',
        args: {},
        inputHash: 'x',
        status: 'executing',
        requiresApproval: false,
      });
      // Refused by the CHECK of 0001; 0002 widened it.
      const moved = await store.actions.transition(action.id, {
        from: 'executing',
        to: 'interrupted',
      });
      expect(moved.ok).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('0005 keeps tokens made before it valid, unrevoked and listed', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'cadre-migrate-')), 'cadre.db');
    const db = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: new Database(file) as unknown as SqliteDatabase }),
    });
    const stepped = await migrator(db, 'sqlite').migrateTo('0004_definitions');
    expect(stepped.error).toBeUndefined();
    const time = new Date(0).toISOString();
    const token = 'cadre_old-token';
    await sql`insert into users (id, name, created_at) values ('u1', 'ann', ${time})`.execute(db);
    await sql`insert into api_tokens (id, user_id, token_hash, created_at)
      values ('k1', 'u1', ${sha256Hex(token)}, ${time})`.execute(db);
    await db.destroy();

    const store = await openKyselyStore({ url: file });
    try {
      expect(await store.auth.listTokens()).toEqual([
        {
          id: 'k1',
          hashPrefix: sha256Hex(token).slice(0, 12),
          userId: 'u1',
          userName: 'ann',
          createdAt: time,
        },
      ]);
      expect((await store.auth.findUserByToken(token))?.name).toBe('ann');
      expect(await store.auth.revokeToken('k1')).toMatchObject({ ok: true });
      expect(await store.auth.findUserByToken(token)).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
