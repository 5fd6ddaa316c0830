import { afterEach, beforeEach, describe } from 'vitest';
import { approvalCases } from './conformance-approvals.js';
import { grantCases } from './conformance-grants.js';
import { identityCases } from './conformance-identity.js';
import { logCases } from './conformance-log.js';
import { queueCases } from './conformance-queue.js';
import { recordedCases } from './conformance-saved.js';
import { runCases } from './conformance-runs.js';
import { tokenCases } from './conformance-tokens.js';
import type { OpenFixture, StoreFixture } from './conformance-store.js';

/**
 * The contract every `Store` backend must pass (the LangGraph checkpoint
 * lesson: one narrow interface, one suite). Call it at the top level of a
 * vitest test file: `open` gives each test a fresh, empty, migrated store
 * (with `db`, raw access to Cadre's tables, for the checks made behind the
 * store's back), and its `cleanup` closes it and removes what it made.
 */
export function describeStoreConformance(name: string, open: OpenFixture): void {
  describe(`Store conformance: ${name}`, () => {
    let current: StoreFixture | undefined;
    const fixture = (): StoreFixture => {
      if (current === undefined) throw new Error('no store is open (beforeEach failed?)');
      return current;
    };
    beforeEach(async () => {
      current = await open();
    });
    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });

    identityCases(fixture);
    tokenCases(fixture);
    runCases(fixture);
    approvalCases(fixture);
    grantCases(fixture);
    logCases(fixture);
    queueCases(fixture);
    recordedCases(fixture);
  });
}
