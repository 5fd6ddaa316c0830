import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { startSmtpServer, type TestSmtpServer } from '../../tools/mail/testing/test-support.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const answered = (r: ModelRequest) => lastParts(r).some((p) => p.kind === 'function_response');
const mailBob = new ScriptedModel((r): ScriptedTurn =>
  answered(r)
    ? { parts: [{ text: 'Sent.' }] }
    : {
        parts: [
          {
            functionCall: {
              name: 'gmail_send',
              args: { to: 'bob@example.com', subject: 'Hi', body: 'Hello' },
            },
          },
        ],
      },
);

let smtp: TestSmtpServer;
let store: Store;
let svc: RunService;
let userId: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-grants-'));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents', 'mailer.yaml'),
    'name: mailer\ndescription: Sends mail.\npromptConfig: { systemPrompt: You send mail. }\ntoolConfig: { tools: [gmail_send] }\n',
  );
  smtp = await startSmtpServer();
  store = await openStore({ url: join(dir, 'cadre.db') });
  svc = await createRunService({
    store,
    cwd: dir,
    env: { CADRE_SMTP_URL: smtp.url(), CADRE_MAIL_FROM: 'bot@example.com', HOME: dir },
    modelClient: mailBob,
  });
  userId = (await store.auth.ensureUser('ann')).id;
});
afterAll(async () => {
  await svc.close();
  await store.close();
  await smtp.close();
});

it('scripted: "always allow" covers only the agent that earned it, and its next step says so', async () => {
  const paused = await svc.run({ userId, prompt: 'Mail Bob', agent: 'mailer' });
  expect(paused.status).toBe('awaiting_confirmation');
  await svc.resolveApproval({
    userId,
    approvalId: paused.approvals[0]!.approvalId,
    decision: 'approve_and_always_allow_recipient',
  });
  expect(await store.grants.list(userId)).toEqual([
    expect.objectContaining({ agent: 'mailer', tool: 'gmail_send', setBy: 'ann' }),
  ]);

  // Another agent of the same user still asks before mailing Bob.
  const other = await svc.run({ userId, prompt: 'Mail Bob' });
  expect(other.status).toBe('awaiting_confirmation');

  const again = await svc.run({ userId, prompt: 'Mail Bob again', agent: 'mailer' });
  expect(again.status).toBe('completed');
  const events = (await svc.readEvents(userId, again.runId, 0)) ?? [];
  const applied = events.find((e) => e.type === 'grant_applied')?.event;
  expect(applied?.message).toMatch(
    /^allowed by your rule for bob@example\.com, set \d\d:\d\d UTC$/,
  );
  expect(applied?.data).toMatchObject({
    tool: 'gmail_send',
    grants: [{ recipient: 'bob@example.com', agent: 'mailer', setBy: 'ann' }],
  });
  expect(smtp.messages).toHaveLength(2);
});
