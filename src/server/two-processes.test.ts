import type { ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/open-store.js';
import { TestPostgres } from '../store/testing/embedded-postgres.js';
import { startSmtpServer, type TestSmtpServer } from '../tools/mail/test-support.js';
import { startServeProcess } from '../testing/serve-process.js';

const postgres = new TestPostgres();
const children: ChildProcess[] = [];
let smtp: TestSmtpServer;

beforeAll(async () => {
  await postgres.start();
  smtp = await startSmtpServer();
}, 60_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await smtp.close();
  await postgres.stop();
}, 30_000);

async function serve(cwd: string, turns: string, db: string): Promise<string> {
  const started = await startServeProcess(cwd, ['--db', db, '--model', `scripted:${turns}`], {
    CADRE_SMTP_URL: smtp.url(),
    CADRE_MAIL_FROM: 'bot@example.com',
  });
  children.push(started.child);
  return started.url;
}

describe('two cadre serve processes on one PostgreSQL (scripted model, real SMTP)', () => {
  it('resolving the same approval through both at the same moment sends exactly one mail', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cadre-two-processes-'));
    const db = await postgres.createDatabase('cadre_two_processes');
    const store = await openStore({ url: db });
    const { token } = await store.createToken((await store.ensureUser('ann')).id);
    await store.close();
    const send = {
      parts: [
        {
          functionCall: {
            name: 'gmail_send',
            args: { to: 'bob@example.com', subject: 'Hi', body: 'Hello' },
          },
        },
      ],
    };
    const done = { parts: [{ text: 'Sent.' }] };
    // Whichever process wins the approval answers next: each script has "Sent." ready for it.
    await writeFile(join(cwd, 'a.json'), JSON.stringify([send, done]));
    await writeFile(join(cwd, 'b.json'), JSON.stringify([done]));
    const [a, b] = await Promise.all([
      serve(cwd, join(cwd, 'a.json'), db),
      serve(cwd, join(cwd, 'b.json'), db),
    ]);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const paused = (await (
      await fetch(`${a}/api/agent/run`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ prompt: 'Mail Bob' }),
      })
    ).json()) as {
      approvals: Array<{ approvalId: string }>;
    };
    const body = JSON.stringify({
      approvalId: paused.approvals[0]?.approvalId,
      decision: 'approve_once',
    });
    const responses = await Promise.all(
      [a, b].map((url) =>
        fetch(`${url}/api/agent/approvals/resolve`, { method: 'POST', headers, body }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = (await responses.find((r) => r.status === 200)?.json()) as {
      status: string;
      summary: string;
    };
    expect(winner).toMatchObject({ status: 'completed', summary: 'Sent.' });
    expect(smtp.messages).toHaveLength(1);
  }, 90_000);
});
