import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../util/sha256.js';
import { tablesOf, type CurrentFixture } from './conformance-store.js';

export function tokenCases(fixture: CurrentFixture): void {
  describe('listing and revoking tokens', () => {
    it('lists every token oldest first, by user id or name, with a hash prefix and no secret', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const bob = await store.auth.ensureUser('bob');
      const first = await store.auth.createToken(alice.id);
      const second = await store.auth.createToken(bob.id);
      await store.auth.findUserByToken(first.token);

      const all = await store.auth.listTokens();
      expect(all.map((t) => [t.id, t.userName])).toEqual([
        [first.record.id, 'alice'],
        [second.record.id, 'bob'],
      ]);
      expect(all[0]).toMatchObject({
        userId: alice.id,
        hashPrefix: sha256Hex(first.token).slice(0, 12),
        createdAt: first.record.createdAt,
      });
      expect(all[0]?.lastUsedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(all[1]?.lastUsedAt).toBeUndefined();
      expect(all.every((t) => t.revokedAt === undefined)).toBe(true);
      const text = JSON.stringify(all);
      for (const { token } of [first, second]) {
        expect(text).not.toContain(token);
        expect(text).not.toContain(sha256Hex(token));
      }

      expect((await store.auth.listTokens({ userId: bob.id })).map((t) => t.id)).toEqual([
        second.record.id,
      ]);
      expect((await store.auth.listTokens({ userName: 'alice' })).map((t) => t.id)).toEqual([
        first.record.id,
      ]);
      expect(await store.auth.listTokens({ userName: 'nobody' })).toEqual([]);
    });

    it('a token revoked by hash prefix finds nobody; revoking again keeps the first time', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const kept = await store.auth.createToken(alice.id);
      const gone = await store.auth.createToken(alice.id);
      // Upper case and surrounding blanks are forgiven: people paste these.
      const prefix = ` ${sha256Hex(gone.token).slice(0, 8).toUpperCase()} `;

      const revoked = await store.auth.revokeToken(prefix);
      expect(revoked).toMatchObject({ ok: true, alreadyRevoked: false });
      if (!revoked.ok) throw new Error('unreachable');
      expect(revoked.token.id).toBe(gone.record.id);
      expect(revoked.token.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await store.auth.findUserByToken(gone.token)).toBeUndefined();
      expect(await store.auth.findUserByToken(kept.token)).toEqual(alice);

      const listed = await store.auth.listTokens();
      expect(listed.map((t) => t.revokedAt)).toEqual([undefined, revoked.token.revokedAt]);

      const again = await store.auth.revokeToken(gone.record.id);
      expect(again).toEqual({ ok: true, alreadyRevoked: true, token: revoked.token });
    });

    it('revokes by full id', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const { token, record } = await store.auth.createToken(alice.id);
      expect(await store.auth.revokeToken(record.id)).toMatchObject({
        ok: true,
        alreadyRevoked: false,
      });
      expect(await store.auth.findUserByToken(token)).toBeUndefined();
    });

    it('an ambiguous prefix, an unknown one, a short one or a wildcard revokes nothing', async (ctx) => {
      const { store, db } = tablesOf(fixture(), ctx);
      const alice = await store.auth.ensureUser('alice');
      const a = await store.auth.createToken(alice.id);
      const b = await store.auth.createToken(alice.id);
      // Two hashes sharing their first digits, which random tokens almost never do.
      for (const [record, hash] of [
        [a.record, `abcdef01${'0'.repeat(56)}`],
        [b.record, `abcdef02${'0'.repeat(56)}`],
      ] as const)
        await db
          .updateTable('api_tokens')
          .set({ token_hash: hash })
          .where('id', '=', record.id)
          .execute();

      const ambiguous = await store.auth.revokeToken('abcdef');
      expect(ambiguous.ok).toBe(false);
      if (ambiguous.ok || ambiguous.reason !== 'ambiguous') throw new Error('not ambiguous');
      expect(ambiguous.matches.map((t) => t.id)).toEqual([a.record.id, b.record.id]);
      for (const wanted of ['0123456789', 'abcde', '%', 'abcdef%', 'no-such-id'])
        expect(await store.auth.revokeToken(wanted)).toEqual({ ok: false, reason: 'not_found' });
      expect((await store.auth.listTokens()).every((t) => t.revokedAt === undefined)).toBe(true);

      expect(await store.auth.revokeToken('abcdef02')).toMatchObject({
        ok: true,
        token: { id: b.record.id },
      });
    });

    it('an aborted revoke changes nothing', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const { token, record } = await store.auth.createToken(alice.id);
      await expect(
        store.auth.revokeToken(record.id, { signal: AbortSignal.abort() }),
      ).rejects.toThrow();
      expect(await store.auth.findUserByToken(token)).toEqual(alice);
    });
  });
}
