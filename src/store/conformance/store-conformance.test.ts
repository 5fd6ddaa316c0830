import { afterAll, afterEach, expect } from 'vitest';
import { openKyselyStore } from '../open-store.js';
import type { Store } from '../types.js';
import { describeStoreConformance } from './index.js';

/*
 * The suite as a third party runs it, from the public entry: a store that is
 * not Cadre's KyselyStore and gives no raw access to its tables. The cases
 * that check behind the store's back are skipped; every other case runs.
 */
const skipped: string[] = [];
const passed: string[] = [];
afterEach((ctx) => {
  const state = ctx.task.result?.state;
  if (state === 'skip') skipped.push(ctx.task.name);
  if (state === 'pass') passed.push(ctx.task.name);
});
afterAll(() => {
  expect(skipped).toContain('SECURITY: the token table holds only the hash, never the plaintext');
  expect(skipped).toContain('TAMPER: a deleted middle entry is a gap');
  expect(passed).toContain('the calls of one turn form one pending batch, in call order');
  expect(passed.length).toBeGreaterThan(skipped.length);
});

describeStoreConformance(
  'a store of its own (SQLite in memory behind a plain object)',
  async () => {
    const inner = await openKyselyStore({ url: ':memory:' });
    const store: Store = {
      auth: inner.auth,
      threads: inner.threads,
      runs: inner.runs,
      queue: inner.queue,
      actions: inner.actions,
      approvals: inner.approvals,
      grants: inner.grants,
      events: inner.events,
      audit: inner.audit,
      newId: () => inner.newId(),
      close: () => inner.close(),
    };
    return { store, cleanup: () => store.close() };
  },
);
