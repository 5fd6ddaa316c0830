import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKyselyStore } from './open-store.js';
import { describeStoreConformance } from './conformance/index.js';
import { sampleEvent, seedApproval } from './conformance/conformance-store.js';
import { TestPostgres } from './testing/embedded-postgres.js';
import { resetPostgres } from './testing/reset-postgres.js';
import type { KyselyStore } from './kysely-store.js';

const TEMPLATE = 'cadre_template';
const SHARED = 'cadre_conformance';
const postgres = new TestPostgres();
const names = { next: 0 };
const freshDatabase = () => postgres.createDatabase(`cadre_test_${++names.next}`, TEMPLATE);

beforeAll(async () => {
  await postgres.start();
  // Migrate once into a template; tests that need their own database copy it.
  const template = await openKyselyStore({ url: await postgres.createDatabase(TEMPLATE) });
  await template.close();
  await postgres.createDatabase(SHARED, TEMPLATE);
}, 60_000);

afterAll(async () => {
  await postgres.stop();
}, 30_000);

describeStoreConformance('PostgreSQL (embedded, real server)', async () => {
  // One database for the suite, emptied before each test.
  const store = await openKyselyStore({ url: postgres.url(SHARED) });
  await resetPostgres(store.db);
  return { store, db: store.db, cleanup: () => store.close() };
});

describe('PostgreSQL: two Store instances (two pools, as two server processes)', () => {
  async function twoStores(url: string): Promise<[KyselyStore, KyselyStore]> {
    const auditKey = randomBytes(32);
    return Promise.all([openKyselyStore({ url, auditKey }), openKyselyStore({ url, auditKey })]);
  }

  it('migrate a fresh database concurrently without tripping over each other', async () => {
    const url = await postgres.createDatabase(`cadre_fresh_${++names.next}`);
    const [a, b] = await twoStores(url);
    expect(await a.audit.verify()).toEqual({ ok: true, count: 0 });
    await Promise.all([a.close(), b.close()]);
  });

  it('RACE: resolving the same approval from both: exactly one winner', async () => {
    const [a, b] = await twoStores(await freshDatabase());
    try {
      for (let round = 0; round < 5; round++) {
        const { user, approval } = await seedApproval(a, `user${round}`);
        const attempts = [a, b, a, b].map((store) =>
          store.approvals.resolve(approval.id, {
            userId: user.id,
            decision: 'approve_once',
          }),
        );
        const results = await Promise.all(attempts);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.filter((r) => !r.ok && r.reason === 'already_resolved')).toHaveLength(3);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('RACE: moving one action to executing from both: exactly one winner', async () => {
    const [a, b] = await twoStores(await freshDatabase());
    try {
      const { action } = await seedApproval(a);
      const results = await Promise.all(
        [a, b, a, b].map((store) =>
          store.actions.transition(action.id, { from: 'awaiting_confirmation', to: 'executing' }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('concurrent audit appends and event appends from both form one chain and one sequence', async () => {
    const [a, b] = await twoStores(await freshDatabase());
    try {
      const { run } = await seedApproval(a);
      const event = sampleEvent(run.id);
      await Promise.all(
        Array.from({ length: 40 }, (_, i) => {
          const store = i % 2 ? a : b;
          return Promise.all([
            store.audit.append({ message: `entry ${i}`, runId: run.id }),
            store.events.append(run.id, [event, event]),
          ]);
        }),
      );
      expect(await a.audit.verify()).toEqual({ ok: true, count: 40 });
      expect(await b.audit.verify()).toEqual({ ok: true, count: 40 });
      const seqs = (await b.events.read(run.id, { limit: 500 })).map((e) => e.seq);
      expect(seqs).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
