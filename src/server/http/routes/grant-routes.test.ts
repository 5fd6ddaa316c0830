import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../../model/scripted-model.js';
import type { Store } from '../../../store/types.js';
import type { GrantView } from '../../run-service-types.js';
import { startRealTestServer, type RealTestServer } from '../testing/real-test-server.js';
import { auth, type TestServer } from '../testing/test-support.js';

let real: RealTestServer;
let store: Store;
let server: TestServer;

beforeAll(async () => {
  real = await startRealTestServer(await mkdtemp(join(tmpdir(), 'cadre-grants-http-')), {
    modelClient: new ScriptedModel([]),
    worker: false,
  });
  ({ store, server } = real);
});
afterAll(() => real.close());

async function signedIn(name: string) {
  const user = await store.auth.ensureUser(name);
  const { token } = await store.auth.createToken(user.id);
  return { userId: user.id, headers: auth(token) };
}

describe('GET / DELETE /api/grants (real HTTP and SQLite on 127.0.0.1)', () => {
  it("lists the user's grants with their agent and setter, and revokes one; another user sees and revokes none", async () => {
    const ann = await signedIn('ann');
    const eve = await signedIn('eve');
    const grant = await store.grants.add({
      userId: ann.userId,
      agent: 'mailer',
      tool: 'gmail_send',
      recipient: 'ana@example.com',
      setBy: 'ann',
    });

    const listed = await fetch(`${server.url}/api/grants`, { headers: ann.headers });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { ok: boolean; grants: GrantView[] };
    expect(body).toEqual({
      ok: true,
      grants: [
        {
          id: grant.id,
          agent: 'mailer',
          tool: 'gmail_send',
          recipient: 'ana@example.com',
          createdAt: grant.createdAt,
          setBy: 'ann',
        },
      ],
    });

    const theirs = await fetch(`${server.url}/api/grants`, { headers: eve.headers });
    expect(((await theirs.json()) as { grants: GrantView[] }).grants).toEqual([]);
    const stolen = await fetch(`${server.url}/api/grants/${grant.id}`, {
      method: 'DELETE',
      headers: eve.headers,
    });
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const revoked = await fetch(`${server.url}/api/grants/${grant.id}`, {
      method: 'DELETE',
      headers: ann.headers,
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ ok: true, revoked: grant.id });
    expect(await store.grants.list(ann.userId)).toEqual([]);
    const again = await fetch(`${server.url}/api/grants/${grant.id}`, {
      method: 'DELETE',
      headers: ann.headers,
    });
    expect(again.status).toBe(404);
  });

  it('needs a token', async () => {
    const res = await fetch(`${server.url}/api/grants`);
    expect(res.status).toBe(401);
  });
});
