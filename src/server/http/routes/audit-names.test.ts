import { randomBytes } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../store/open-store.js';
import type { Store } from '../../../store/types.js';
import { createRunService } from '../../core/create-run-service.js';
import type { RunService } from '../../run-service-types.js';
import { startTestServer, type TestServer } from '../test-support.js';

const SCRIPT = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../examples/scripts/assistant-turns.json',
);
let dir: string;
let store: Store;
let service: RunService;
let server: TestServer;
let token = '';

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-audit-names-')));
  store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  service = await createRunService({
    store,
    cwd: dir,
    env: { HOME: dir },
    model: `scripted:${SCRIPT}`,
  });
  token = (await store.createToken((await store.ensureUser('bob')).id)).token;
  server = await startTestServer(service, { store });
});
afterAll(async () => {
  await server.close();
  await service.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const post = async (path: string, body: unknown) =>
  (await (
    await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()) as Record<string, unknown>;

const auditOf = async (runId: string) =>
  (
    (await (
      await fetch(`${server.url}/api/audit?runId=${runId}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { entries: Array<{ message: string; executionStatus: string }> }
  ).entries;

const PROMPT = 'Book a design review with Ana on 1 December at 9 UTC';

describe('audit rows name the person who decided (scripted model)', () => {
  it('a rejection says who rejected, not "the approver"', async () => {
    const asked = await post('/api/agent/run', { prompt: PROMPT });
    const approvalId = (asked.approvals as Array<{ approvalId: string }>)[0]!.approvalId;
    await post('/api/agent/approvals/resolve', { approvalId, decision: 'reject' });
    const messages = (await auditOf(asked.runId as string)).map((e) => e.message);
    expect(messages).toContain('calendar_event_create rejected by bob');
    expect(messages.join('\n')).not.toContain('the approver');
  });

  it('an approval says who approved', async () => {
    const asked = await post('/api/agent/run', { prompt: PROMPT });
    const approvalId = (asked.approvals as Array<{ approvalId: string }>)[0]!.approvalId;
    await post('/api/agent/approvals/resolve', { approvalId, decision: 'approve_once' });
    const messages = (await auditOf(asked.runId as string)).map((e) => e.message);
    expect(messages.some((m) => m.includes('decided by bob: approve_once'))).toBe(true);
  });
});
