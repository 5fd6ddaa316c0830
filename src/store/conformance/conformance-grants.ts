import { describe, expect, it } from 'vitest';
import { seedApproval, type CurrentFixture } from './conformance-store.js';

export function grantCases(fixture: CurrentFixture): void {
  describe('grants', () => {
    it('adding is idempotent and normalises the recipient', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const input = { userId: alice.id, agent: 'assistant', tool: 'gmail_send' };
      const first = await store.grants.add({
        ...input,
        recipient: ' Bob@Example.COM ',
        setBy: 'alice',
      });
      const again = await store.grants.add({ ...input, recipient: 'bob@example.com' });
      expect(first).toMatchObject({
        agent: 'assistant',
        recipient: 'bob@example.com',
        setBy: 'alice',
      });
      expect(Number.isNaN(Date.parse(first.createdAt))).toBe(false);
      expect(again).toEqual(first);
      expect(await store.grants.list(alice.id)).toEqual([first]);
    });

    it('has() matches user, agent, tool and normalised recipient only', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const bob = await store.auth.ensureUser('bob');
      const scope = { agent: 'assistant', tool: 'gmail_send', recipient: 'bob@example.com' };
      await store.grants.add({ userId: alice.id, ...scope });
      expect(await store.grants.has(alice.id, { ...scope, recipient: 'BOB@example.com' })).toBe(
        true,
      );
      expect(await store.grants.has(alice.id, { ...scope, recipient: 'eve@example.com' })).toBe(
        false,
      );
      expect(await store.grants.has(alice.id, { ...scope, tool: 'calendar_event_create' })).toBe(
        false,
      );
      expect(await store.grants.has(alice.id, { ...scope, agent: 'mailer' })).toBe(false);
      expect(await store.grants.has(bob.id, scope)).toBe(false);
      expect(await store.grants.list(bob.id)).toEqual([]);
    });

    it('one recipient granted to two agents is two grants, each revoked alone', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const base = { userId: alice.id, tool: 'gmail_send', recipient: 'bob@example.com' };
      const mine = await store.grants.add({ ...base, agent: 'assistant' });
      const other = await store.grants.add({ ...base, agent: 'mailer' });
      expect(await store.grants.list(alice.id)).toEqual([mine, other]);
      expect(await store.grants.revoke(mine.id, alice.id)).toBe(true);
      expect(await store.grants.revoke(mine.id, alice.id)).toBe(false);
      expect(await store.grants.list(alice.id)).toEqual([other]);
    });

    it('another user cannot revoke a grant that is not theirs', async () => {
      const { store } = fixture();
      const alice = await store.auth.ensureUser('alice');
      const eve = await store.auth.ensureUser('eve');
      const grant = await store.grants.add({
        userId: alice.id,
        agent: 'assistant',
        tool: 'gmail_send',
        recipient: 'bob@example.com',
      });
      expect(await store.grants.revoke(grant.id, eve.id)).toBe(false);
      expect(await store.grants.list(alice.id)).toEqual([grant]);
    });

    it("the operator's view lists every user's grants by name and revokes any one", async () => {
      const { store } = fixture();
      const ann = await store.auth.ensureUser('ann');
      const bob = await store.auth.ensureUser('bob');
      const scope = { agent: 'assistant', tool: 'gmail_send', recipient: 'carol@example.com' };
      const anns = await store.grants.add({ userId: ann.id, ...scope });
      const bobs = await store.grants.add({ userId: bob.id, ...scope });
      expect(await store.grants.listAll({})).toEqual([
        { ...anns, userName: 'ann' },
        { ...bobs, userName: 'bob' },
      ]);
      expect(await store.grants.listAll({ userName: 'bob' })).toEqual([
        { ...bobs, userName: 'bob' },
      ]);
      expect(await store.grants.listAll({ userName: 'nobody' })).toEqual([]);
      expect(await store.grants.revokeAny(bobs.id)).toEqual({ ...bobs, userName: 'bob' });
      expect(await store.grants.revokeAny(bobs.id)).toBeUndefined();
      expect(await store.grants.listAll({})).toEqual([{ ...anns, userName: 'ann' }]);
    });

    it("an approving decision's grants belong to the run's agent and name who set them", async () => {
      const { store } = fixture();
      const { user, approval } = await seedApproval(store, 'alice');
      const resolved = await store.approvals.resolve(approval.id, {
        userId: user.id,
        decision: 'approve_and_always_allow_recipient',
        matches: true,
        grants: [{ tool: 'gmail_send', recipient: 'Bob@Example.com' }],
      });
      expect(resolved.ok).toBe(true);
      const [grant, ...rest] = await store.grants.list(user.id);
      expect(rest).toEqual([]);
      expect(grant).toMatchObject({
        userId: user.id,
        agent: 'assistant',
        tool: 'gmail_send',
        recipient: 'bob@example.com',
        setBy: 'alice',
      });
    });
  });
}
