import { CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { KyselyStore } from '../kysely-store.js';
import { openKyselyStore } from '../open-store.js';
import { pendingPageQuery } from './pending-approvals.js';

let store: KyselyStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('pending approvals page (SQLite query plan)', () => {
  it('walks the (user_id, status, id) index from the cursor: no sort of every pending row', async () => {
    store = await openKyselyStore({ url: ':memory:' });
    const context = { db: store.db };
    for (const page of [{ limit: 50 }, { after: 'a', limit: 50 }]) {
      const query = pendingPageQuery(context, 'u', page).compile();
      const plan = await store.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      const details = plan.rows.map((row) => row.detail).join('\n');
      expect(details).toMatch(/approvals USING INDEX approvals_user_status_id_idx/);
      expect(details).not.toMatch(/TEMP B-TREE/);
    }
  });
});
