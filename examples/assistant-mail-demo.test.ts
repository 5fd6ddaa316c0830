import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunService } from '../src/server/core/create-run-service.js';
import type { RunService } from '../src/server/run-service-types.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/types.js';
import { startSmtpServer, type TestSmtpServer } from '../src/tools/mail/testing/test-support.js';

// The README's key-less server demo: `cadre serve --model scripted:examples/scripts/assistant-turns.json`.
const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), 'scripts/assistant-turns.json');
const PROMPT = 'Email bob@example.com to ask whether lunch on Friday at noon works';

let store: Store;
let smtp: TestSmtpServer;
const services: RunService[] = [];

async function serve(env: Record<string, string>): Promise<RunService> {
  const service = await createRunService({
    store,
    cwd: await mkdtemp(join(tmpdir(), 'cadre-mail-demo-')),
    env,
    model: `scripted:${SCRIPT}`,
  });
  services.push(service);
  return service;
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-mail-demo-'));
  store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  smtp = await startSmtpServer();
});
afterAll(async () => {
  for (const service of services) await service.close();
  await store.close();
  await smtp.close();
});

describe('the shipped assistant script under cadre serve: a mail card as well as a calendar one (scripted model responses)', () => {
  it('a mail prompt asks to send the mail; approved, it is sent once and the reply says so', async () => {
    const service = await serve({
      HOME: tmpdir(),
      CADRE_SMTP_URL: smtp.url(),
      CADRE_MAIL_FROM: 'cadre@example.com',
    });
    const userId = (await store.auth.ensureUser('ann')).id;
    const asked = await service.run({ userId, prompt: PROMPT });
    expect(asked.status).toBe('awaiting_confirmation');
    expect(asked.approvals).toEqual([
      expect.objectContaining({
        tool: 'gmail_send',
        preview: 'Send "Lunch on Friday" to bob@example.com',
      }),
    ]);
    const done = await service.resolveApproval({
      userId,
      approvalId: asked.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(done).toMatchObject({
      status: 'completed',
      summary: 'Sent: the mail about lunch on Friday went to bob@example.com.',
    });
    expect(smtp.messages.map((m) => m.rcptTo)).toEqual([['bob@example.com']]);
  });

  it('with no mail server configured, the reply tells the tool error instead of claiming the mail went', async () => {
    const service = await serve({ HOME: tmpdir() });
    const userId = (await store.auth.ensureUser('bea')).id;
    const asked = await service.run({ userId, prompt: PROMPT });
    const done = await service.resolveApproval({
      userId,
      approvalId: asked.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(done.summary).toMatch(/^I could not send the mail: .*CADRE_SMTP_URL/s);
    const rejected = await service.run({ userId, prompt: PROMPT });
    const no = await service.resolveApproval({
      userId,
      approvalId: rejected.approvals[0]!.approvalId,
      decision: 'reject',
    });
    expect(no.summary).toMatch(/^OK, I did not send the mail to Bob\./);
  });
});
