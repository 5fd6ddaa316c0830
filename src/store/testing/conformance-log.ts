import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditHash, GENESIS_HASH, MAX_AUDIT_MESSAGE } from '../audit-chain.js';
import type { Store } from '../types.js';
import { sampleEvent, seedRun, type CurrentFixture } from './store-fixture.js';

async function appendAudits(store: Store, count: number, runId?: string) {
  const entries = [];
  for (let i = 1; i <= count; i++)
    entries.push(
      await store.appendAudit({
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
      const first = await store.appendEvents(run.id, [
        sampleEvent(run.id, 'run_started'),
        sampleEvent(run.id),
      ]);
      await store.appendEvents(other.run.id, [sampleEvent(other.run.id)]);
      const second = await store.appendEvents(run.id, [
        sampleEvent(run.id, 'final_result', 'done'),
      ]);
      expect([...first, ...second].map((e) => e.seq)).toEqual([1, 2, 3]);
      const read = await store.readEvents(run.id);
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
      expect((await store.readEvents(other.run.id)).map((e) => e.seq)).toEqual([1]);
    });

    it('reads after a cursor, in pages of `limit`, as a client re-attaching after a disconnect', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      await store.appendEvents(
        run.id,
        Array.from({ length: 25 }, (_, i) => sampleEvent(run.id, 'text_delta', `d${i}`)),
      );
      const seen: number[] = [];
      let after = 0;
      for (;;) {
        const page = await store.readEvents(run.id, { after, limit: 10 });
        if (page.length === 0) break;
        seen.push(...page.map((e) => e.seq));
        after = page[page.length - 1]?.seq ?? after;
      }
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(await store.readEvents(run.id, { after: 25 })).toEqual([]);
    });

    it('RACE: concurrent appends to one run get unique, gap-free seqs', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      const batches = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.appendEvents(run.id, [sampleEvent(run.id), sampleEvent(run.id)]),
        ),
      );
      const seqs = batches
        .flat()
        .map((e) => e.seq)
        .sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    });

    it('appending to a missing run fails and writes nothing', async () => {
      const { store, db } = fixture();
      await expect(store.appendEvents('missing', [sampleEvent('missing')])).rejects.toThrow(
        /no such run/,
      );
      expect(await db.selectFrom('run_events').selectAll().execute()).toEqual([]);
    });
  });

  describe('audit', () => {
    it('chains entries: the first links to the genesis hash, each next one to the previous hash', async () => {
      const { store } = fixture();
      const entries = await appendAudits(store, 3);
      expect(entries.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(entries[0]?.prevHash).toBe(GENESIS_HASH);
      expect(entries[1]?.prevHash).toBe(entries[0]?.hash);
      expect(entries[2]?.prevHash).toBe(entries[1]?.hash);
      expect(await store.listAudit()).toEqual(entries);
      expect(await store.verifyAudit()).toEqual({ ok: true, count: 3 });
    });

    it('an empty log verifies', async () => {
      expect(await fixture().store.verifyAudit()).toEqual({ ok: true, count: 0 });
    });

    it('lists by run and caps long messages', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      await appendAudits(store, 2);
      const mine = await appendAudits(store, 2, run.id);
      expect(await store.listAudit({ runId: run.id })).toEqual(mine);
      const long = await store.appendAudit({ message: 'x'.repeat(MAX_AUDIT_MESSAGE * 3) });
      expect(long.message).toHaveLength(MAX_AUDIT_MESSAGE);
      expect(await store.verifyAudit()).toEqual({ ok: true, count: 5 });
    });

    it('RACE: concurrent appends still form one chain', async () => {
      const { store } = fixture();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.appendAudit({ message: `m${i}` })),
      );
      expect(await store.verifyAudit()).toEqual({ ok: true, count: 20 });
    });

    it('TAMPER: a message edited behind the store’s back breaks the chain at that seq', async () => {
      const { store, db } = fixture();
      await appendAudits(store, 4);
      await sql`update audit_log set message = ${'nothing happened'} where seq = ${2}`.execute(db);
      expect(await store.verifyAudit()).toEqual({
        ok: false,
        brokenAt: 2,
        reason: 'hash_mismatch',
      });
    });

    it('TAMPER: an edit that recomputes its own hash breaks the link to the next entry', async () => {
      const { store, db } = fixture();
      const entries = await appendAudits(store, 4);
      const { hash: _old, ...edited } = { ...entries[1]!, message: 'nothing happened' };
      await sql`update audit_log set message = ${edited.message}, hash = ${auditHash(edited)} where seq = ${2}`.execute(
        db,
      );
      expect(await store.verifyAudit()).toEqual({
        ok: false,
        brokenAt: 3,
        reason: 'prev_hash_mismatch',
      });
    });

    it('TAMPER: a rewritten hash is caught at its own seq', async () => {
      const { store, db } = fixture();
      await appendAudits(store, 4);
      await sql`update audit_log set hash = ${'e'.repeat(64)} where seq = ${3}`.execute(db);
      expect(await store.verifyAudit()).toEqual({
        ok: false,
        brokenAt: 3,
        reason: 'hash_mismatch',
      });
    });

    it('TAMPER: a deleted entry is a gap; a deleted last entry disagrees with the head', async () => {
      const { store, db } = fixture();
      await appendAudits(store, 4);
      await sql`delete from audit_log where seq = ${4}`.execute(db);
      expect(await store.verifyAudit()).toEqual({
        ok: false,
        brokenAt: 4,
        reason: 'head_mismatch',
      });
      await sql`delete from audit_log where seq = ${2}`.execute(db);
      expect(await store.verifyAudit()).toEqual({ ok: false, brokenAt: 2, reason: 'seq_gap' });
    });
  });
}
