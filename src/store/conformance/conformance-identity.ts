import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/validation-error.js';
import { sha256Hex } from '../../util/sha256.js';
import { tablesOf, type CurrentFixture } from './conformance-store.js';

export function identityCases(fixture: CurrentFixture): void {
  describe('users and tokens', () => {
    it('ensureUser returns the same user for the same name', async () => {
      const { store } = fixture();
      const first = await store.auth.ensureUser('alice');
      const again = await store.auth.ensureUser('alice');
      const other = await store.auth.ensureUser('bob');
      expect(again).toEqual(first);
      expect(other.id).not.toBe(first.id);
    });

    it('a token finds its user; an unknown token finds nobody', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const { token, record } = await store.auth.createToken(alice.id);
      expect(record.userId).toBe(alice.id);
      expect(record.tokenHash).toBe(sha256Hex(token));
      expect(await store.auth.findUserByToken(token)).toEqual(alice);
      expect(await store.auth.findUserByToken(`${token}x`)).toBeUndefined();
    });

    it('SECURITY: the token table holds only the hash, never the plaintext', async (ctx) => {
      const { store, db } = tablesOf(fixture(), ctx);
      const alice = await store.auth.ensureUser('alice');
      const { token } = await store.auth.createToken(alice.id);
      const rows = await sql<Record<string, unknown>>`select * from api_tokens`.execute(db);
      expect(rows.rows).toHaveLength(1);
      expect(JSON.stringify(rows.rows)).not.toContain(token);
      expect(rows.rows[0]?.token_hash).toBe(sha256Hex(token));
    });

    it('using a token records lastUsedAt', async (ctx) => {
      const { store, db } = tablesOf(fixture(), ctx);
      const alice = await store.auth.ensureUser('alice');
      const { token } = await store.auth.createToken(alice.id);
      await store.auth.findUserByToken(token);
      const row = await db
        .selectFrom('api_tokens')
        .select('last_used_at')
        .executeTakeFirstOrThrow();
      expect(row.last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    });
  });

  describe('threads and messages', () => {
    it("another user's thread is not found and not listed", async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const bob = await store.auth.ensureUser('bob');
      const thread = await store.threads.create({ userId: alice.id, title: 'Plans' });
      expect(await store.threads.get(thread.id, alice.id)).toEqual(thread);
      expect(await store.threads.get(thread.id, bob.id)).toBeUndefined();
      expect(await store.threads.list(bob.id)).toEqual([]);
      expect(await store.threads.list(alice.id)).toEqual([thread]);
    });

    it('lists threads most recently updated first (a new message moves a thread up)', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const older = await store.threads.create({ userId: alice.id, title: 'older' });
      // Real 5 ms gaps, kept: the store stamps updates with the real time itself.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const newer = await store.threads.create({ userId: alice.id, title: 'newer' });
      expect((await store.threads.list(alice.id)).map((t) => t.id)).toEqual([newer.id, older.id]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.threads.appendMessage(older.id, { role: 'user', content: 'bump' });
      expect((await store.threads.list(alice.id)).map((t) => t.id)).toEqual([older.id, newer.id]);
      expect(await store.threads.list(alice.id, { limit: 1 })).toHaveLength(1);
    });

    it('messages get seq 1, 2, ... and list returns the last N, oldest first', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const thread = await store.threads.create({ userId: alice.id, title: 't' });
      for (let i = 1; i <= 5; i++)
        await store.threads.appendMessage(thread.id, {
          role: i % 2 ? 'user' : 'assistant',
          content: `m${i}`,
          ...(i === 2 ? { runId: 'run-1' } : {}),
        });
      const all = await store.threads.listMessages(thread.id);
      expect(all.map((m) => [m.seq, m.content])).toEqual([1, 2, 3, 4, 5].map((i) => [i, `m${i}`]));
      expect(all[1]).toMatchObject({ role: 'assistant', runId: 'run-1' });
      expect(all[0]?.runId).toBeUndefined();
      const recent = await store.threads.listMessages(thread.id, { limit: 2 });
      expect(recent.map((m) => m.content)).toEqual(['m4', 'm5']);
    });

    it('concurrent appends to one thread get distinct, gap-free seqs', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const thread = await store.threads.create({ userId: alice.id, title: 't' });
      const appended = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store.threads.appendMessage(thread.id, { role: 'user', content: `m${i}` }),
        ),
      );
      expect(appended.map((m) => m.seq).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
    });

    it('appending to a missing thread is a validation error and writes nothing', async (ctx) => {
      const { store, db } = tablesOf(fixture(), ctx);
      await expect(
        store.threads.appendMessage('missing', { role: 'user', content: 'x' }),
      ).rejects.toBeInstanceOf(ValidationError);
      expect(await db.selectFrom('messages').selectAll().execute()).toEqual([]);
    });
  });
}
