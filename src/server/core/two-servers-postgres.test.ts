import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { openStore } from '../../store/open-store.js';
import { TestPostgres } from '../../store/testing/embedded-postgres.js';
import { startSmtpServer, type TestSmtpServer } from '../../tools/mail/testing/test-support.js';
import { createRunService } from './create-run-service.js';

const postgres = new TestPostgres();
let smtp: TestSmtpServer;

beforeAll(async () => {
  await postgres.start();
  smtp = await startSmtpServer();
}, 60_000);
afterAll(async () => {
  await smtp.close();
  await postgres.stop();
}, 30_000);

const answered = (r: ModelRequest) =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');
const mailer = () =>
  new ScriptedModel((r): ScriptedTurn =>
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

describe('two server processes on one PostgreSQL (scripted model, real SMTP)', () => {
  it('resolving the same approval at the same moment sends exactly one mail', async () => {
    const url = await postgres.createDatabase('cadre_two_servers');
    const cwd = await mkdtemp(join(tmpdir(), 'cadre-two-'));
    const env = { CADRE_SMTP_URL: smtp.url(), CADRE_MAIL_FROM: 'bot@example.com', HOME: cwd };
    const [storeA, storeB] = await Promise.all([openStore({ url }), openStore({ url })]);
    const a = await createRunService({ store: storeA, cwd, env, modelClient: mailer() });
    const b = await createRunService({ store: storeB, cwd, env, modelClient: mailer() });
    try {
      for (let round = 0; round < 5; round++) {
        const user = await storeA.auth.ensureUser('ann');
        const before = smtp.messages.length;
        const paused = await a.run({ userId: user.id, prompt: `Mail Bob, round ${round}` });
        const approvalId = paused.approvals[0]!.approvalId;
        const outcomes = await Promise.allSettled([
          a.resolveApproval({ userId: user.id, approvalId, decision: 'approve_once' }),
          b.resolveApproval({ userId: user.id, approvalId, decision: 'approve_once' }),
        ]);
        expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
        const rejected = outcomes.find((o) => o.status === 'rejected');
        expect(rejected?.status === 'rejected' && (rejected.reason as { code?: string }).code).toBe(
          'conflict',
        );
        expect(smtp.messages.length - before).toBe(1);
      }
    } finally {
      await a.close();
      await b.close();
      await storeA.close();
      await storeB.close();
    }
  }, 60_000);
});
