import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailerEnv, mailsTo, tokenFor, type RunResult } from '../testing/durability-fixture.js';
import type { FakeServer } from '../testing/fake-turn.js';
import { seededRandom, testClient } from '../testing/http-client.js';
import { startMailerGemini } from '../testing/mailer-gemini.js';
import { startServeProcess } from '../testing/serve-process.js';
import { startSmtpServer, type TestSmtpServer } from '../tools/mail/testing/test-support.js';

const TRIES = 24;
let smtp: TestSmtpServer;
let gemini: FakeServer;
let child: ChildProcess | undefined;

beforeAll(async () => {
  // DATA is answered after 300 ms, so many disconnects land while the mail is being sent.
  smtp = await startSmtpServer({ dataReplyDelayMs: 300 });
  gemini = await startMailerGemini();
}, 30_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  await smtp.close();
  await gemini.close();
}, 30_000);

describe('a client that disconnects while resolving (scripted fake Gemini, real SMTP, real cadre serve on SQLite)', () => {
  it(`${TRIES} disconnects at random moments: every approved mail is sent exactly once and recorded completed`, async () => {
    const seed = Number(process.env.CADRE_DISCONNECT_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const cwd = await mkdtemp(join(tmpdir(), 'cadre-disconnect-'));
    const db = join(cwd, 'cadre.db');
    const client = testClient(await tokenFor(db));
    const started = await startServeProcess(
      cwd,
      ['--db', db, '--model', 'gemini-2.5-flash'],
      mailerEnv(smtp, gemini),
    );
    child = started.child;
    const { url } = started;

    let cut = 0;
    for (let i = 0; i < TRIES; i++) {
      const to = `leaver${i}@example.com`;
      const paused = (await (
        await client.post(url, '/api/agent/run', { prompt: `Mail ${to}` })
      ).json()) as RunResult;
      expect(paused.status).toBe('awaiting_confirmation');
      const leave = new AbortController();
      const timer = setTimeout(() => leave.abort(), Math.floor(random() * 500));
      const answered = await client
        .post(
          url,
          '/api/agent/approvals/resolve',
          { approvalId: paused.approvals[0]?.approvalId, decision: 'approve_once' },
          leave.signal,
        )
        .then((r) => r.json())
        .catch(() => undefined);
      clearTimeout(timer);
      if (answered === undefined) cut++;
      // Re-attach: the run went on without the client.
      const lines = await client.lines(
        await client.get(url, `/api/runs/${paused.runId}/stream?after=0`),
      );
      expect(lines.at(-1), `seed ${seed}, try ${i}`).toMatchObject({
        type: 'result',
        result: { status: 'completed', summary: 'Sent.' },
      });
      const view = (await (await client.get(url, `/api/runs/${paused.runId}`)).json()) as {
        actions: Array<{ status: string }>;
      };
      expect(
        view.actions.map((a) => a.status),
        `seed ${seed}, try ${i}`,
      ).toEqual(['completed']);
      expect(mailsTo(smtp, to), `seed ${seed}, try ${i}`).toBe(1);
    }
    // The schedule must really have cut most requests short, or this proves nothing.
    expect(cut).toBeGreaterThan(TRIES / 2);
    console.info(
      `disconnects (seed ${seed}): ${cut}/${TRIES} resolves cut short; ${TRIES}/${TRIES} mails sent once, all completed`,
    );
  }, 120_000);
});
