import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealTestServer, type RealTestServer } from '../testing/real-test-server.js';
import type { TestServer } from '../testing/test-support.js';

const SCRIPT = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../examples/scripts/assistant-turns.json',
);
let real: RealTestServer;
let server: TestServer;
let token = '';

beforeAll(async () => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-audit-names-')));
  real = await startRealTestServer(dir, { model: `scripted:${SCRIPT}` });
  ({ server } = real);
  token = (await real.store.auth.createToken((await real.store.auth.ensureUser('bob')).id)).token;
});
afterAll(() => real.close());

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
