import type { ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../store/open-store.js';
import { startSmtpServer, type TestSmtpServer } from '../tools/mail/testing/test-support.js';
import { startServeProcess } from '../testing/serve-process.js';

const children: ChildProcess[] = [];
let smtp: TestSmtpServer | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await smtp?.close();
});

async function serve(
  cwd: string,
  turns: string,
  db: string,
): Promise<{ url: string; child: ChildProcess }> {
  const started = await startServeProcess(cwd, ['--db', db, '--model', `scripted:${turns}`], {
    CADRE_SMTP_URL: smtp?.url(),
    CADRE_MAIL_FROM: 'bot@example.com',
  });
  children.push(started.child);
  return started;
}

describe('a server killed with SIGKILL (scripted model, real SMTP, real process)', () => {
  it('restarts with the pending approval intact, and the mail goes out exactly once', async () => {
    smtp = await startSmtpServer();
    const cwd = await mkdtemp(join(tmpdir(), 'cadre-restart-'));
    const db = join(cwd, 'cadre.db');
    const store = await openStore({ url: db });
    const { token } = await store.auth.createToken((await store.auth.ensureUser('ann')).id);
    await store.close();
    // One script for both processes, as a restarted `cadre serve --model` has: the run
    // resumed by the second goes on at turn 2 (its thread has used turn 1).
    const turns = join(cwd, 'turns.json');
    await writeFile(
      turns,
      JSON.stringify([
        {
          parts: [
            {
              functionCall: {
                name: 'gmail_send',
                args: { to: 'bob@example.com', subject: 'Hi', body: 'Hello' },
              },
            },
          ],
        },
        { parts: [{ text: 'Sent it.' }] },
      ]),
    );
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const first = await serve(cwd, turns, db);
    const paused = (await (
      await fetch(`${first.url}/api/agent/run`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ prompt: 'Mail Bob' }),
      })
    ).json()) as {
      status: string;
      approvals: Array<{ approvalId: string }>;
    };
    expect(paused.status).toBe('awaiting_confirmation');
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await serve(cwd, turns, db);
    const pending = (await (
      await fetch(`${second.url}/api/agent/approvals/pending`, { headers })
    ).json()) as { approvals: Array<{ approvalId: string }> };
    expect(pending.approvals.map((a) => a.approvalId)).toEqual([paused.approvals[0]?.approvalId]);
    const done = (await (
      await fetch(`${second.url}/api/agent/approvals/resolve`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          approvalId: paused.approvals[0]?.approvalId,
          decision: 'approve_once',
        }),
      })
    ).json()) as { status: string; summary: string };
    expect(done).toMatchObject({ status: 'completed', summary: 'Sent it.' });
    expect(smtp.messages).toHaveLength(1);
    const again = await fetch(`${second.url}/api/agent/approvals/resolve`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        approvalId: paused.approvals[0]?.approvalId,
        decision: 'approve_once',
      }),
    });
    expect(again.status).toBe(409);
    expect(smtp.messages).toHaveLength(1);
  }, 60_000);
});
