import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mailerEnv,
  tokenFor,
  type RunResult,
  mailsTo as mailed,
} from '../testing/durability-fixture.js';
import { TestPostgres } from '../store/testing/embedded-postgres.js';
import { seededRandom, testClient, type TestClient } from '../testing/http-client.js';
import { startMailerGemini } from '../testing/mailer-gemini.js';
import { startServeProcess, startWorkerProcess } from '../testing/serve-process.js';
import type { FakeServer } from '../testing/fake-turn.js';
import { startSmtpServer, type TestSmtpServer } from '../tools/mail/testing/test-support.js';

const postgres = new TestPostgres();
const children = new Set<ChildProcess>();
let smtp: TestSmtpServer;
let gemini: FakeServer;
let cwd: string;

beforeAll(async () => {
  await postgres.start();
  smtp = await startSmtpServer({ dataReplyDelayMs: 100 });
  gemini = await startMailerGemini();
  cwd = await mkdtemp(join(tmpdir(), 'cadre-cluster-'));
}, 60_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await smtp.close();
  await gemini.close();
  await postgres.stop();
}, 30_000);

// Short leases and polls: a dead process's runs are taken over in about 1.5 s.
const env = () => mailerEnv(smtp, gemini, { CADRE_LEASE_MS: '1500', CADRE_POLL_MS: '200' });

async function serve(
  db: string,
  extra: string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const started = await startServeProcess(
    cwd,
    ['--db', db, '--model', 'gemini-2.5-flash', '--drain-seconds', '0', ...extra],
    env(),
  );
  children.add(started.child);
  started.child.once('exit', () => children.delete(started.child));
  if (process.env.CADRE_CHAOS_TRACE)
    started.child.stderr?.on('data', (chunk: Buffer) =>
      trace(`[${started.url}] ${chunk.toString()}`),
    );
  return started;
}

const RUNS = Number(process.env.CADRE_CHAOS_RUNS ?? 200);
const trace = (text: string) => {
  if (process.env.CADRE_CHAOS_TRACE) process.stderr.write(`${new Date().toISOString()} ${text}\n`);
};

const mailsTo = (address: string) => mailed(smtp, address);

describe('several cadre processes on one PostgreSQL (scripted fake Gemini, real SMTP, real processes)', () => {
  it('resolving the same approval through two processes at the same moment sends exactly one mail', async () => {
    const db = await postgres.createDatabase('cadre_contested');
    const client = testClient(await tokenFor(db));
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    for (let round = 0; round < 3; round++) {
      const to = `contested${round}@example.com`;
      const paused = (await (
        await client.post(a.url, '/api/agent/run', { prompt: `Mail ${to}` })
      ).json()) as RunResult;
      expect(paused.status).toBe('awaiting_confirmation');
      const body = { approvalId: paused.approvals[0]?.approvalId, decision: 'approve_once' };
      const responses = await Promise.all(
        [a, b].map((p) => client.post(p.url, '/api/agent/approvals/resolve', body)),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = (await responses.find((r) => r.status === 200)?.json()) as RunResult;
      expect(winner).toMatchObject({ status: 'completed', summary: 'Sent.' });
      expect(mailsTo(to)).toBe(1);
    }
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
  }, 90_000);

  it('a stream attached to a process without a worker follows a run that a worker process drives', async () => {
    const db = await postgres.createDatabase('cadre_split');
    const client = testClient(await tokenFor(db));
    const http = await serve(db, ['--no-worker']);
    const worker = await startWorkerProcess(
      cwd,
      ['--db', db, '--model', 'gemini-2.5-flash', '--drain-seconds', '0'],
      env(),
    );
    children.add(worker);
    const to = 'split@example.com';
    const asked = await client.lines(
      await client.post(http.url, '/api/agent/run/stream', { prompt: `Mail ${to}` }),
    );
    expect(asked[0]).toMatchObject({ type: 'status', status: 'planning' });
    expect(asked.map((l) => l.type)).toEqual(
      expect.arrayContaining(['tool_call', 'approval_required', 'result']),
    );
    const paused = asked.at(-1)?.result as RunResult;
    expect(paused.status).toBe('awaiting_confirmation');
    const resumed = await client.lines(
      await client.post(http.url, '/api/agent/approvals/resolve/stream', {
        approvalId: paused.approvals[0]?.approvalId,
        decision: 'approve_once',
      }),
    );
    expect(
      resumed
        .filter((l) => l.type === 'delta')
        .map((l) => l.delta)
        .join(''),
    ).toBe('Sent.');
    expect(resumed.at(-1)).toMatchObject({ type: 'result', result: { status: 'completed' } });
    expect(mailsTo(to)).toBe(1);
    // Re-attaching after the fact replays the whole stored log, in order.
    const replay = await client.lines(
      await client.get(http.url, `/api/runs/${paused.runId}/stream?after=0`),
    );
    const seqs = replay.flatMap((l) =>
      typeof l.seq === 'number'
        ? [l.seq]
        : l.type === 'event'
          ? [(l.event as { seq: number }).seq]
          : [],
    );
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(replay.at(-1)).toMatchObject({ type: 'result', result: { status: 'completed' } });
    worker.kill('SIGKILL');
    http.child.kill('SIGKILL');
  }, 90_000);

  it('three processes, 200 runs with approvals, one SIGKILLed and restarted every few seconds: every run ends and no mail goes out twice', async () => {
    const seed = Number(process.env.CADRE_CHAOS_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const db = await postgres.createDatabase('cadre_chaos');
    const client = testClient(await tokenFor(db));
    const processes = await Promise.all([serve(db), serve(db), serve(db)]);
    const live = (): string => {
      const up = processes.filter((p) => p.child.exitCode === null && !p.child.killed);
      return up[Math.floor(random() * up.length)]?.url ?? (processes[0]?.url as string);
    };
    const kills: number[] = [];
    let driving = true;
    const killer = (async () => {
      while (driving) {
        await new Promise((r) => setTimeout(r, 1200 + random() * 1300));
        if (!driving) break;
        const index = Math.floor(random() * processes.length);
        const victim = processes[index];
        if (!victim) continue;
        victim.child.kill('SIGKILL');
        trace(`killed ${victim.url}`);
        kills.push(Date.now());
        await new Promise((r) => victim.child.once('exit', r));
        processes[index] = await serve(db);
      }
    })();

    const runOne = async (i: number): Promise<{ to: string; runId: string; result: RunResult }> => {
      const to = `chaos${i}@example.com`;
      const runId = await startRun(client, live, `Mail ${to}`);
      trace(`${i} started ${runId}`);
      let result = await settle(client, live, runId);
      trace(`${i} settled ${result.status}`);
      for (let tries = 0; result.status === 'awaiting_confirmation' && tries < 50; tries++) {
        const approvalId = result.approvals[0]?.approvalId;
        await retry(async () => {
          const response = await client.post(live(), '/api/agent/approvals/resolve', {
            approvalId,
            decision: 'approve_once',
          });
          // 409: another try already decided it, which is what we wanted.
          if (response.status !== 200 && response.status !== 409)
            throw new Error(`resolve answered ${response.status}`);
          await response.body?.cancel();
        });
        result = await settle(client, live, runId);
        trace(`${i} after resolve ${result.status}`);
      }
      return { to, runId, result };
    };

    const outcomes: Array<Awaited<ReturnType<typeof runOne>>> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < RUNS) outcomes.push(await runOne(next++));
      }),
    );
    driving = false;
    await killer;

    const stuck = outcomes.filter((o) => o.result.status !== 'completed');
    expect(
      stuck.map((o) => [o.runId, o.result.status, o.result.summary]),
      `seed ${seed}`,
    ).toEqual([]);
    let interrupted = 0;
    const latencies: number[] = [];
    for (const { to, runId } of outcomes) {
      const view = (await (await client.get(live(), `/api/runs/${runId}`)).json()) as {
        actions: Array<{ status: string }>;
        events: Array<{ type: string; event: { timestamp: string } }>;
      };
      const [action] = view.actions;
      // Never twice; exactly once wherever no kill hit mid-send.
      expect(mailsTo(to), `${to} (seed ${seed})`).toBeLessThanOrEqual(1);
      if (action?.status === 'completed') expect(mailsTo(to), `${to} (seed ${seed})`).toBe(1);
      else {
        expect(action?.status, `${to} (seed ${seed})`).toBe('interrupted');
        interrupted++;
      }
      for (const e of view.events.filter((e) => e.type === 'run_taken_over')) {
        const at = Date.parse(e.event.timestamp);
        const kill = kills.filter((k) => k <= at).at(-1);
        if (kill !== undefined) latencies.push(at - kill);
      }
    }
    // An effect is only ever interrupted by a kill, never by a live process's recovery.
    expect(interrupted).toBeLessThanOrEqual(kills.length * 10);
    latencies.sort((x, y) => x - y);
    console.info(
      `chaos (seed ${seed}): ${smtp.messages.filter((m) => m.rcptTo[0]?.startsWith('chaos')).length}/200 mails, ` +
        `${stuck.length} stuck, ${kills.length} kills, ${interrupted} interrupted, ` +
        `takeover latency p50 ${latencies[Math.floor(latencies.length / 2)] ?? '-'} ms, max ${latencies.at(-1) ?? '-'} ms`,
    );
  }, 300_000);
});

/** Retries an HTTP step on another live process while processes die under it. */
async function retry<T>(step: () => Promise<T>): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < 60; attempt++) {
    try {
      return await step();
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw last;
}

/**
 * Starts a run and learns its id from the stream's first line. If the process dies before
 * that, the run may exist anyway: find it by its thread instead of starting a second one.
 */
async function startRun(client: TestClient, live: () => string, prompt: string): Promise<string> {
  const base = live();
  try {
    const response = await client.post(base, '/api/agent/run/stream', { prompt });
    const reader = response.body?.getReader();
    let text = '';
    while (reader && !text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader?.cancel();
    const first = JSON.parse(text.split('\n')[0] ?? '{}') as { runId?: string };
    if (first.runId) return first.runId;
  } catch {
    // fall through: look it up
  }
  return retry(async () => {
    const threads = (await (await client.get(live(), '/api/threads')).json()) as {
      threads: Array<{ id: string; title: string }>;
    };
    const thread = threads.threads.find((t) => t.title === prompt);
    if (!thread) return startRun(client, live, prompt);
    const view = (await (await client.get(live(), `/api/threads/${thread.id}`)).json()) as {
      messages: Array<{ role: string; runId?: string }>;
    };
    const runId = view.messages.find((m) => m.role === 'user')?.runId;
    if (!runId) throw new Error('thread without a run yet');
    return runId;
  });
}

/** Follows a run (through any live process) until it finishes or waits for a person. */
function settle(client: TestClient, live: () => string, runId: string): Promise<RunResult> {
  return retry(async () => {
    const lines = await client.lines(await client.get(live(), `/api/runs/${runId}/stream?after=0`));
    const last = lines.at(-1);
    if (last?.type !== 'result')
      throw new Error(`stream ended without a result: ${JSON.stringify(last)}`);
    return last.result as RunResult;
  });
}
