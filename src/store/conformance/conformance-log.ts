import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditHash, GENESIS_HASH, MAX_AUDIT_MESSAGE } from '../audit-chain.js';
import { readAuditHead, sealAudit } from '../operations/audit-head.js';
import type { Store } from '../types.js';
import {
  keyedStore,
  kyselyOf,
  sampleEvent,
  seedRun,
  tablesOf,
  type CurrentFixture,
} from './conformance-store.js';

async function appendAudits(store: Store, count: number, runId?: string) {
  const entries = [];
  for (let i = 1; i <= count; i++)
    entries.push(
      await store.audit.append({
        runId,
        toolName: 'gmail_send',
        inputHash: 'd'.repeat(64),
        policyDecision: 'require_approval',
        executionStatus: 'completed',
        message: `entry ${i}`,
      }),
    );
  return entries;
}

export function logCases(fixture: CurrentFixture): void {
  describe('run events', () => {
    it('assigns seq 1, 2, ... per run, continuing across appends, and keeps the whole event', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      const other = await seedRun(store, 'bob');
      const first = await store.events.append(run.id, [
        sampleEvent(run.id, 'run_started'),
        sampleEvent(run.id),
      ]);
      await store.events.append(other.run.id, [sampleEvent(other.run.id)]);
      const second = await store.events.append(run.id, [
        sampleEvent(run.id, 'final_result', 'done'),
      ]);
      expect([...first, ...second].map((e) => e.seq)).toEqual([1, 2, 3]);
      const read = await store.events.read(run.id);
      expect(read.map((e) => [e.seq, e.type])).toEqual([
        [1, 'run_started'],
        [2, 'text_delta'],
        [3, 'final_result'],
      ]);
      expect(read[2]?.event).toEqual({
        ...sampleEvent(run.id, 'final_result', 'done'),
        timestamp: read[2]?.event.timestamp,
        seq: 3,
      });
      expect((await store.events.read(other.run.id)).map((e) => e.seq)).toEqual([1]);
    });

    it('reads after a cursor, in pages of `limit`, as a client re-attaching after a disconnect', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      await store.events.append(
        run.id,
        Array.from({ length: 25 }, (_, i) => sampleEvent(run.id, 'text_delta', `d${i}`)),
      );
      const seen: number[] = [];
      let after = 0;
      for (;;) {
        const page = await store.events.read(run.id, { after, limit: 10 });
        if (page.length === 0) break;
        seen.push(...page.map((e) => e.seq));
        after = page[page.length - 1]?.seq ?? after;
      }
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(await store.events.read(run.id, { after: 25 })).toEqual([]);
    });

    it('RACE: concurrent appends to one run get unique, gap-free seqs', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      const batches = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.events.append(run.id, [sampleEvent(run.id), sampleEvent(run.id)]),
        ),
      );
      const seqs = batches
        .flat()
        .map((e) => e.seq)
        .sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    });

    it('appending to a missing run fails and writes nothing', async (ctx) => {
      const { store, db } = tablesOf(fixture(), ctx);
      await expect(store.events.append('missing', [sampleEvent('missing')])).rejects.toThrow(
        /no such run/,
      );
      expect(await db.selectFrom('run_events').selectAll().execute()).toEqual([]);
    });
  });

  describe('audit', () => {
    it('chains entries: the first links to the genesis hash, each next one to the previous hash', async (ctx) => {
      const store = keyedStore(kyselyOf(fixture(), ctx).store);
      const entries = await appendAudits(store, 3);
      expect(entries.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(entries[0]?.prevHash).toBe(GENESIS_HASH);
      expect(entries[1]?.prevHash).toBe(entries[0]?.hash);
      expect(entries[2]?.prevHash).toBe(entries[1]?.hash);
      expect(await store.audit.list()).toEqual(entries);
      expect(await store.audit.verify()).toEqual({ ok: true, count: 3 });
    });

    it('an empty log verifies, with or without a key', async (ctx) => {
      expect(await fixture().store.audit.verify()).toEqual({ ok: true, count: 0 });
      expect(await keyedStore(kyselyOf(fixture(), ctx).store).audit.verify()).toEqual({
        ok: true,
        count: 0,
      });
    });

    it('lists by run and caps long messages', async (ctx) => {
      const store = keyedStore(kyselyOf(fixture(), ctx).store);
      const { run } = await seedRun(store);
      await appendAudits(store, 2);
      const mine = await appendAudits(store, 2, run.id);
      expect(await store.audit.list({ runId: run.id })).toEqual(mine);
      const long = await store.audit.append({ message: 'x'.repeat(MAX_AUDIT_MESSAGE * 3) });
      expect(long.message).toHaveLength(MAX_AUDIT_MESSAGE);
      expect(await store.audit.verify()).toEqual({ ok: true, count: 5 });
    });

    it('RACE: concurrent appends still form one chain', async (ctx) => {
      const store = keyedStore(kyselyOf(fixture(), ctx).store);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.audit.append({ message: `m${i}` })),
      );
      expect(await store.audit.verify()).toEqual({ ok: true, count: 20 });
    });

    it('keyed entries are HMACs: the public recipe does not reproduce them', async (ctx) => {
      const [entry] = await appendAudits(keyedStore(kyselyOf(fixture(), ctx).store), 1);
      const { hash, ...unhashed } = entry!;
      expect(hash).not.toBe(auditHash(unhashed));
    });

    it('TAMPER: a message edited behind the store’s back fails its MAC at that seq', async (ctx) => {
      const { store, db } = kyselyOf(fixture(), ctx);
      const keyed = keyedStore(store);
      await appendAudits(keyed, 4);
      await sql`update audit_log set message = ${'nothing happened'} where seq = ${2}`.execute(db);
      expect(await keyed.audit.verify()).toEqual({
        ok: false,
        brokenAt: 2,
        reason: 'mac_mismatch',
      });
    });

    it('TAMPER: a row rewritten and every later hash recomputed with the public recipe fails its MAC', async (ctx) => {
      const { store, db } = kyselyOf(fixture(), ctx);
      const keyed = keyedStore(store);
      const entries = await appendAudits(keyed, 4);
      let prevHash = entries[0]!.hash;
      for (const entry of entries.slice(1)) {
        const { hash: _old, ...rest } = entry;
        const edited = {
          ...rest,
          prevHash,
          message: entry.seq === 2 ? 'nothing happened' : rest.message,
        };
        prevHash = auditHash(edited);
        await sql`update audit_log set message = ${edited.message}, prev_hash = ${edited.prevHash}, hash = ${prevHash} where seq = ${entry.seq}`.execute(
          db,
        );
      }
      await sql`update audit_head set hash = ${prevHash} where id = 1`.execute(db);
      expect(await keyed.audit.verify()).toEqual({
        ok: false,
        brokenAt: 2,
        reason: 'mac_mismatch',
      });
    });

    it('TAMPER: the last entry deleted and the head rolled back fails the head MAC', async (ctx) => {
      const { store, db } = kyselyOf(fixture(), ctx);
      const keyed = keyedStore(store);
      const entries = await appendAudits(keyed, 4);
      await sql`delete from audit_log where seq = ${4}`.execute(db);
      await sql`update audit_head set seq = ${3}, hash = ${entries[2]!.hash} where id = 1`.execute(
        db,
      );
      expect(await keyed.audit.verify()).toEqual({
        ok: false,
        brokenAt: 4,
        reason: 'head_mismatch',
      });
      // Stripping the head's seal instead, to pass as a chain from before the key, fails too.
      await sql`update audit_head set mac = null, keyed_from = null where id = 1`.execute(db);
      expect(await keyed.audit.verify()).toEqual({
        ok: false,
        brokenAt: 1,
        reason: 'head_mismatch',
      });
      // Appending does not launder it: on an unsealed head a keyed store writes the public
      // recipe (only `cadre audit seal` keys an existing chain)...
      await keyed.audit.append({ message: 'after' });
      expect(await keyed.audit.verify()).toMatchObject({ ok: false, brokenAt: 1 });
      // ...and it refuses to extend, and so re-MAC, a head whose MAC fails.
      await sql`update audit_head set mac = ${'f'.repeat(64)}, keyed_from = ${1} where id = 1`.execute(
        db,
      );
      await expect(keyed.audit.append({ message: 'after' })).rejects.toThrow(/fails its MAC/);
    });

    it('TAMPER: a deleted last entry with the head left alone is a truncation', async (ctx) => {
      const { store, db } = kyselyOf(fixture(), ctx);
      const keyed = keyedStore(store);
      await appendAudits(keyed, 4);
      await sql`delete from audit_log where seq = ${4}`.execute(db);
      expect(await keyed.audit.verify()).toEqual({ ok: false, brokenAt: 4, reason: 'truncated' });
    });

    it('TAMPER: a deleted middle entry is a gap', async (ctx) => {
      const { store, db } = kyselyOf(fixture(), ctx);
      const keyed = keyedStore(store);
      await appendAudits(keyed, 4);
      await sql`delete from audit_log where seq = ${2}`.execute(db);
      expect(await keyed.audit.verify()).toEqual({ ok: false, brokenAt: 2, reason: 'seq_gap' });
    });

    it('TAMPER: a head rolled back over rows it leaves in place disagrees with them', async (ctx) => {
      const { store, db } = kyselyOf(fixture(), ctx);
      const keyed = keyedStore(store);
      const entries = await appendAudits(keyed, 4);
      await sql`update audit_head set seq = ${3}, hash = ${entries[2]!.hash} where id = 1`.execute(
        db,
      );
      expect(await keyed.audit.verify()).toEqual({
        ok: false,
        brokenAt: 4,
        reason: 'head_mismatch',
      });
    });

    it('another key does not verify the chain, and cannot extend it', async (ctx) => {
      const { store } = kyselyOf(fixture(), ctx);
      await appendAudits(keyedStore(store), 2);
      const other = keyedStore(store);
      expect(await other.audit.verify()).toEqual({
        ok: false,
        brokenAt: 1,
        reason: 'mac_mismatch',
      });
      await expect(other.audit.append({ message: 'm' })).rejects.toThrow(/fails its MAC/);
    });

    describe('without a key', () => {
      it('appends with the public recipe and verifies the links, but reports the chain unkeyed', async (ctx) => {
        const { store, db } = tablesOf(fixture(), ctx);
        const entries = await appendAudits(store, 3);
        const { hash, ...unhashed } = entries[1]!;
        expect(hash).toBe(auditHash(unhashed));
        expect(await store.audit.verify()).toEqual({ ok: false, brokenAt: 1, reason: 'unkeyed' });
        await sql`update audit_log set message = ${'nothing happened'} where seq = ${2}`.execute(
          db,
        );
        expect(await store.audit.verify()).toEqual({
          ok: false,
          brokenAt: 2,
          reason: 'hash_mismatch',
        });
      });

      it('a keyed chain is reported unkeyed, and the store refuses to extend it', async (ctx) => {
        const { store } = kyselyOf(fixture(), ctx);
        await appendAudits(keyedStore(store), 2);
        expect(await store.audit.verify()).toEqual({ ok: false, brokenAt: 1, reason: 'unkeyed' });
        await expect(store.audit.append({ message: 'm' })).rejects.toThrow(/audit log is keyed/);
      });

      it('entries written before the key stay on the public recipe until sealed, then are anchored', async (ctx) => {
        const { store, db } = kyselyOf(fixture(), ctx);
        const key = randomBytes(32);
        const keyed = keyedStore(store, key);
        const legacy = await appendAudits(store, 2);
        // A keyed store does not adopt an existing unkeyed chain by itself.
        await keyed.audit.append({ message: 'm3' });
        expect(await keyed.audit.verify()).toEqual({ ok: false, brokenAt: 1, reason: 'unkeyed' });
        const head = await readAuditHead({ db });
        await sealAudit({ db, dialect: keyed.dialect, auditKey: key }, head);
        expect(await keyed.audit.verify()).toEqual({ ok: true, count: 3 });
        await appendAudits(keyed, 2);
        expect(await keyed.audit.verify()).toEqual({ ok: true, count: 5 });
        // A legacy entry rewritten with the public recipe breaks the keyed entries' link to it.
        const { hash: _old, ...edited } = { ...legacy[1]!, message: 'nothing happened' };
        await sql`update audit_log set message = ${edited.message}, hash = ${auditHash(edited)} where seq = ${2}`.execute(
          db,
        );
        expect(await keyed.audit.verify()).toEqual({
          ok: false,
          brokenAt: 3,
          reason: 'prev_hash_mismatch',
        });
      });
    });
  });
}
