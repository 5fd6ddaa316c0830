import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { startInProcessServer, type InProcessServer } from '../testing/in-process-server.js';
import { startSmtpServer, type TestSmtpServer } from '../tools/mail/testing/test-support.js';

let smtp: TestSmtpServer;
let server: InProcessServer;

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const answered = (r: ModelRequest) => lastParts(r).some((p) => p.kind === 'function_response');
const promptOf = (r: ModelRequest) =>
  r.messages
    .flatMap((m) => m.parts)
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join(' ');
const mail = (to: string) => ({
  functionCall: { name: 'gmail_send', args: { to, subject: 'Hi', body: 'Hello' }, id: 'same' },
});
const event = (attendees?: string[]) => ({
  functionCall: {
    name: 'calendar_event_create',
    args: {
      title: 'Review',
      start: '2026-12-01T09:00:00Z',
      end: '2026-12-01T10:00:00Z',
      ...(attendees ? { attendees } : {}),
    },
  },
});
/** Scripted, by prompt: what a hostile or sloppy model might send. */
const model = new ScriptedModel((r): ScriptedTurn => {
  if (answered(r)) return { parts: [{ text: 'Done.' }] };
  const prompt = promptOf(r);
  if (prompt.includes('twice')) return { parts: [mail('a@example.com'), mail('b@example.com')] };
  if (prompt.includes('alone')) return { parts: [event()] };
  return { parts: [event(['eve@example.com'])] };
});

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-hostile-'));
  smtp = await startSmtpServer();
  server = await startInProcessServer({
    cwd: dir,
    env: { CADRE_SMTP_URL: smtp.url(), CADRE_MAIL_FROM: 'bot@example.com' },
    modelClient: model,
  });
}, 30_000);
afterAll(async () => {
  await server.close();
  await smtp.close();
});

interface RunResult {
  status: string;
  approvals: Array<{ approvalId: string; preview: string }>;
}

describe('a hostile model against a real server (scripted model, real SQLite and SMTP)', () => {
  it('two calls sharing one call id are renamed: both pause for approval, no 500, both mails go out once', async () => {
    const { client, url } = server;
    const response = await client.post(url, '/api/agent/run', { prompt: 'Mail them twice' });
    expect(response.status).toBe(200);
    const paused = (await response.json()) as RunResult;
    expect(paused.status).toBe('awaiting_confirmation');
    expect(paused.approvals).toHaveLength(2);
    let last: RunResult | undefined;
    for (const approval of paused.approvals) {
      const resolved = await client.post(url, '/api/agent/approvals/resolve', {
        approvalId: approval.approvalId,
        decision: 'approve_once',
      });
      expect(resolved.status).toBe(200);
      last = (await resolved.json()) as RunResult;
    }
    expect(last?.status).toBe('completed');
    expect(smtp.messages.map((m) => m.rcptTo[0]).sort()).toEqual([
      'a@example.com',
      'b@example.com',
    ]);
  });

  it('"always allow" on an event with no attendees stores no grant: a later invitation still asks', async () => {
    const { client, url, store } = server;
    const alone = (await (
      await client.post(url, '/api/agent/run', { prompt: 'Block time alone' })
    ).json()) as RunResult;
    const decided = await client.post(url, '/api/agent/approvals/resolve', {
      approvalId: alone.approvals[0]?.approvalId,
      decision: 'approve_and_always_allow_recipient',
    });
    expect(((await decided.json()) as RunResult).status).toBe('completed');
    const user = await store.auth.ensureUser('ann');
    expect(await store.grants.list(user.id)).toEqual([]);
    const invite = (await (
      await client.post(url, '/api/agent/run', { prompt: 'Invite Eve' })
    ).json()) as RunResult;
    expect(invite.status).toBe('awaiting_confirmation');
  });
});
