import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../errors/index.js';
import { auth, fakeService, startTestServer, type TestServer } from './testing/test-support.js';

// The store's outage itself is attacked in src/server/worker/postgres-outage.test.ts; this is
// what a client reads while it lasts.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(
    fakeService({
      listThreads: () => Promise.reject(new StoreUnavailableError('unreachable')),
    }),
  );
});
afterAll(() => server.close());

describe('a request while the database is down', () => {
  it('answers 503 store_unavailable with Retry-After, so clients come back instead of giving up', async () => {
    const res = await fetch(`${server.url}/api/threads`, { headers: auth() });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'store_unavailable' } });
  });
});
