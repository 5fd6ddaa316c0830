import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mailerEnv,
  mailsTo as mailed,
  tokenFor,
  type RunResult,
} from '../testing/durability-fixture.js';
import type { FakeServer } from '../testing/fake-turn.js';
import { seededRandom, testClient } from '../testing/http-client.js';
import { startMailerGemini } from '../testing/mailer-gemini.js';
import { isRunning } from '../testing/processes.js';
import { startServeProcess } from '../testing/serve-process.js';
import { startSmtpServer, type TestSmtpServer } from '../tools/mail/testing/test-support.js';

const KILLS = 20;
let smtp: TestSmtpServer;
let gemini: FakeServer;
// Every serve process a test starts: each is stopped, and waited for, after the file.
const children = new Set<ChildProcess>();
let child: ChildProcess | undefined;
const track = (started: ChildProcess): ChildProcess => {
  children.add(started);
  child = started;
  return started;
};

beforeAll(async () => {
  // The SMTP server holds its DATA reply for a second, so kills land mid-send too.
  smtp = await startSmtpServer({ dataReplyDelayMs: 1000 });
  gemini = await startMailerGemini();
}, 30_000);
afterAll(async () => {
  await Promise.all([...children].map(stopProcess));
  // None may outlive the file (reparented to PID 1, it would hold its port and database).
  expect([...children].filter((c) => c.pid !== undefined && isRunning(c.pid))).toEqual([]);
  await smtp.close();
  await gemini.close();
}, 30_000);

describe('cadre serve on SQLite, SIGKILLed at random moments around a resolve (scripted fake Gemini, real SMTP, real processes)', () => {
  it(`${KILLS} kills before, during and after resolving: no mail twice, no approval lost, every run finishes after the restart`, async () => {
    const seed = Number(process.env.CADRE_KILL_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const cwd = await mkdtemp(join(tmpdir(), 'cadre-kill-'));
    const db = join(cwd, 'cadre.db');
    const client = testClient(await tokenFor(db));
    const serve = async (): Promise<string> => {
      const started = await startServeProcess(
        cwd,
        ['--db', db, '--model', 'gemini-2.5-flash', '--drain-seconds', '0'],
        serveEnv({ CADRE_LEASE_MS: '1000', CADRE_POLL_MS: '100' }),
      );
      track(started.child);
      return started.url;
    };
    const mailsTo = (to: string) => mailed(smtp, to);

    let url = await serve();
    const outcomes: Array<{ to: string; status: string; action: string; killAfterMs: number }> = [];
    const recoveries: number[] = [];
    for (let i = 0; i < KILLS; i++) {
      const to = `kill${i}@example.com`;
      const paused = (await (
        await client.post(url, '/api/agent/run', { prompt: `Mail ${to}` })
      ).json()) as RunResult;
      expect(paused.status).toBe('awaiting_confirmation');
      const approvalId = paused.approvals[0]?.approvalId;
      // Kill somewhere between just before the resolve and well after the mail's DATA.
      const killAfterMs = Math.floor(random() * 1600);
      const resolving = client
        .post(url, '/api/agent/approvals/resolve', { approvalId, decision: 'approve_once' })
        .catch(() => undefined);
      await new Promise((r) => setTimeout(r, killAfterMs));
      const dying = child;
      dying?.kill('SIGKILL');
      await new Promise((r) => (dying?.exitCode !== null ? r(undefined) : dying.once('exit', r)));
      await resolving;
      const killedAt = Date.now();

      url = await serve();
      // The approval is either still pending (the kill came first) or decided with its run resumable.
      const pending = (await (await client.get(url, '/api/agent/approvals/pending')).json()) as {
        approvals: Array<{ approvalId: string }>;
      };
      if (pending.approvals.some((a) => a.approvalId === approvalId)) {
        await (
          await client.post(url, '/api/agent/approvals/resolve', {
            approvalId,
            decision: 'approve_once',
          })
        ).text();
      }
      const lines = await client.lines(
        await client.get(url, `/api/runs/${paused.runId}/stream?after=0`),
      );
      recoveries.push(Date.now() - killedAt);
      const result = lines.at(-1)?.result as RunResult;
      const view = (await (await client.get(url, `/api/runs/${paused.runId}`)).json()) as {
        actions: Array<{ status: string }>;
      };
      outcomes.push({
        to,
        status: result.status,
        action: view.actions[0]?.status ?? 'none',
        killAfterMs,
      });
    }
    const report = JSON.stringify({ seed, outcomes });
    for (const o of outcomes) {
      expect(o.status, report).toBe('completed');
      expect(mailsTo(o.to), report).toBeLessThanOrEqual(1);
      if (o.action === 'completed') expect(mailsTo(o.to), report).toBe(1);
      else expect(o.action, report).toBe('interrupted');
    }
    // The SMTP server holds each DATA reply for a second: some kills must have cut a mail off,
    // or this run never tested a kill mid-effect.
    expect(
      outcomes.some((o) => o.action === 'interrupted'),
      report,
    ).toBe(true);
    recoveries.sort((a, b) => a - b);
    console.info(
      `kills on SQLite (seed ${seed}): ${outcomes.filter((o) => mailsTo(o.to) === 1).length}/${KILLS} mails, ` +
        `${outcomes.filter((o) => o.action === 'interrupted').length} interrupted, 0 stuck; ` +
        `restart to run settled p50 ${recoveries[Math.floor(recoveries.length / 2)]} ms, max ${recoveries.at(-1)} ms`,
    );
  }, 240_000);

  it('SIGTERM drains: the step in flight (a mail being sent) finishes, the attached request gets its answer, the process exits 0', async () => {
    const { url, client, proc, mailsTo } = await freshServer(['--drain-seconds', '20']);
    const paused = (await (
      await client.post(url, '/api/agent/run', { prompt: 'Mail drain@example.com' })
    ).json()) as RunResult;
    const before = smtp.connections;
    const answer = client.post(url, '/api/agent/approvals/resolve', {
      approvalId: paused.approvals[0]?.approvalId,
      decision: 'approve_once',
    });
    await expect.poll(() => smtp.connections, { timeout: 10_000 }).toBeGreaterThan(before);
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    proc.kill('SIGTERM');
    expect(await (await answer).json()).toMatchObject({ status: 'completed', summary: 'Sent.' });
    expect(await exited).toBe(0);
    expect(mailsTo('drain@example.com')).toBe(1);
  }, 60_000);

  it('a second SIGTERM leaves at once and hands the run over: the next process takes it without waiting for a lease', async () => {
    const { url, client, proc, db, cwd, mailsTo } = await freshServer(['--drain-seconds', '600'], {
      CADRE_LEASE_MS: '600000',
    });
    const paused = (await (
      await client.post(url, '/api/agent/run', { prompt: 'Mail twice@example.com' })
    ).json()) as RunResult;
    const before = smtp.connections;
    void client
      .post(url, '/api/agent/approvals/resolve', {
        approvalId: paused.approvals[0]?.approvalId,
        decision: 'approve_once',
      })
      .catch(() => undefined);
    await expect.poll(() => smtp.connections, { timeout: 10_000 }).toBeGreaterThan(before);
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    proc.kill('SIGTERM');
    // Within this test's timeout, far below the 600 s drain and the 10 min lease.
    await exited;
    const next = await startServeProcess(
      cwd,
      ['--db', db, '--model', 'gemini-2.5-flash'],
      serveEnv({ CADRE_LEASE_MS: '600000' }),
    );
    track(next.child);
    const lines = await client.lines(
      await client.get(next.url, `/api/runs/${paused.runId}/stream?after=0`),
    );
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: { status: 'completed' } });
    const view = (await (await client.get(next.url, `/api/runs/${paused.runId}`)).json()) as {
      actions: Array<{ status: string }>;
      events: Array<{ type: string }>;
    };
    expect(view.events.map((e) => e.type)).toContain('run_taken_over');
    expect(['completed', 'interrupted']).toContain(view.actions[0]?.status);
    expect(mailsTo('twice@example.com')).toBeLessThanOrEqual(1);
  }, 60_000);
});

/** SIGKILLs a process unless it has exited, and resolves once it has. */
function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGKILL');
  return exited;
}

function serveEnv(extra: Record<string, string> = {}): Record<string, string> {
  return mailerEnv(smtp, gemini, extra);
}

async function freshServer(args: string[], extra: Record<string, string> = {}) {
  const cwd = await mkdtemp(join(tmpdir(), 'cadre-drain-'));
  const db = join(cwd, 'cadre.db');
  const token = await tokenFor(db);
  const started = await startServeProcess(
    cwd,
    ['--db', db, '--model', 'gemini-2.5-flash', ...args],
    serveEnv(extra),
  );
  track(started.child);
  return {
    cwd,
    db,
    url: started.url,
    proc: started.child,
    client: testClient(token),
    mailsTo: (to: string) => mailed(smtp, to),
  };
}
