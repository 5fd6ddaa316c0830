import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { runCliCaptured } from '../../testing/run-cli-captured.js';
import { loadTrajectory } from '../../trajectory/load-trajectory.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../../errors/cadre-error.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelClient,
  type ModelRequest,
} from '../../model/types.js';
import { sql } from 'kysely';
import type { KyselyStore } from '../../store/kysely-store.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { startSmtpServer, type TestSmtpServer } from '../../tools/mail/testing/test-support.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';

/** One key for the whole file: a "restart" reopens the same chain. */
const AUDIT_KEY = randomBytes(32);

let dir: string;
let smtp: TestSmtpServer;
const opened: Array<{ store: Store; service: RunService }> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-core-'));
  smtp = await startSmtpServer();
});
afterEach(async () => {
  for (const { service, store } of opened.splice(0)) {
    await service.close();
    await store.close();
  }
  await smtp.close();
});

async function service(
  model: ModelClient,
): Promise<{ service: RunService; store: Store; userId: string; otherId: string }> {
  const store = await openStore({ url: join(dir, 'cadre.db'), auditKey: AUDIT_KEY });
  const svc = await createRunService({
    store,
    cwd: dir,
    env: { CADRE_SMTP_URL: smtp.url(), CADRE_MAIL_FROM: 'bot@example.com', HOME: dir },
    modelClient: model,
  });
  opened.push({ store, service: svc });
  const user = await store.auth.ensureUser('ann');
  const other = await store.auth.ensureUser('eve');
  return { service: svc, store, userId: user.id, otherId: other.id };
}

/** Polls `read` until it gives a value, for at most 5 s. */
async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const answered = (r: ModelRequest) => lastParts(r).some((p) => p.kind === 'function_response');
const send = (to: string): ScriptedTurn => ({
  parts: [
    { functionCall: { name: 'gmail_send', args: { to, subject: 'Hi', body: 'Hello there' } } },
  ],
});
const mailer = (to = 'bob@example.com') =>
  new ScriptedModel((r): ScriptedTurn =>
    answered(r) ? { parts: [{ text: `Result: ${JSON.stringify(lastParts(r))}` }] } : send(to),
  );

describe('server core: runs, approvals, resume (scripted model, real SMTP and SQLite)', () => {
  it('answers a chat prompt and keeps the thread and events', async () => {
    const { service: svc, userId } = await service(
      new ScriptedModel([{ parts: [{ text: 'Hello Ann.' }] }]),
    );
    const response = await svc.run({ userId, prompt: 'Hi' });
    expect(response).toMatchObject({
      ok: true,
      status: 'completed',
      summary: 'Hello Ann.',
      actions: [],
      approvals: [],
    });
    const thread = await svc.getThread(userId, response.threadId);
    expect(thread?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello Ann.'],
    ]);
    const events = (await svc.readEvents(userId, response.runId, 0)) ?? [];
    expect(events.map((e) => e.type)).toContain('final_result');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('records a run on request, as a trajectory that loads back', async () => {
    const { service: svc, userId } = await service(
      new ScriptedModel([{ parts: [{ text: 'Recorded hello.' }] }]),
    );
    const response = await svc.run({ userId, prompt: 'Hi', record: true });
    const trajectory = await loadTrajectory(
      join(await realpath(dir), '.cadre/runs', `${response.runId}.json`),
    );
    expect(trajectory.metadata).toMatchObject({ terminate_reason: 'GOAL' });
    expect(trajectory.model_steps).toHaveLength(1);
  });

  it('exports a recorded run as a trajectory file that cadre replay accepts (scripted model)', async () => {
    const {
      service: svc,
      userId,
      otherId,
    } = await service(new ScriptedModel([{ parts: [{ text: 'Recorded hello.' }] }]));
    const response = await svc.run({ userId, prompt: 'Hi', record: true });
    expect((await svc.trajectory(userId, response.runId))?.schema_version).toBe(1);
    expect(await svc.trajectoryFile(otherId, response.runId)).toBeUndefined();
    const file = join(dir, 'exported.json');
    await writeFile(file, JSON.stringify(await svc.trajectoryFile(userId, response.runId)));
    const replay = await runCliCaptured(['replay', file], {
      cwd: dir,
      env: { HOME: join(dir, 'home') },
    });
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('Recorded hello.');
  });

  it('records a run that pauses for approval, once it has finished (scripted model)', async () => {
    const { service: svc, userId } = await service(mailer());
    const paused = await svc.run({ userId, prompt: 'Mail Bob', record: true });
    expect(paused.status).toBe('awaiting_confirmation');
    const approvalId = paused.approvals[0]!.approvalId;
    const done = await svc.resolveApproval({ userId, approvalId, decision: 'approve_once' });
    expect(done.status).toBe('completed');
    const file = await svc.trajectoryFile(userId, done.runId);
    expect(file?.metadata.terminate_reason).toBe('GOAL');
    expect(file?.model_steps).toHaveLength(2);
    expect(file?.approvals.map((a) => a.decision.kind)).toEqual(['approve']);
    // It replays on the command line as it ran: the mail is not sent again.
    const path = join(dir, 'paused.json');
    await writeFile(path, JSON.stringify(file));
    const replay = await runCliCaptured(['replay', path], {
      cwd: dir,
      env: { HOME: join(dir, 'home') },
    });
    expect(replay.code, replay.stderr).toBe(0);
    expect(smtp.messages).toHaveLength(1);
  });

  it('cancelling a recorded run that waits for approval removes the recording its pause kept (scripted model)', async () => {
    const { service: svc, userId } = await service(mailer());
    const paused = await svc.run({ userId, prompt: 'Mail Bob', record: true });
    expect(paused.status).toBe('awaiting_confirmation');
    const kept = join(await realpath(dir), '.cadre', 'runs', `${paused.runId}.paused.json`);
    expect(existsSync(kept)).toBe(true);
    expect((await svc.cancelRun(userId, paused.runId))?.status).toBe('cancelled');
    expect(existsSync(kept)).toBe(false);
    expect(smtp.messages).toHaveLength(0);
  });

  it('a recorded run cancelled from elsewhere just as it pauses ends cancelled and keeps no paused recording (scripted model)', async () => {
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const inner = mailer();
    const gated: ModelClient = {
      specificationVersion: MODEL_SPECIFICATION_VERSION,
      provider: inner.provider,
      async *generate(request, signal) {
        await gate;
        yield* inner.generate(request, signal);
      },
    };
    const { service: svc, store, userId } = await service(gated);
    let started = (_runId: string): void => undefined;
    const announced = new Promise<string>((resolve) => (started = resolve));
    const running = svc.run(
      { userId, prompt: 'Mail Bob', record: true },
      { onStarted: (ids) => started(ids.runId) },
    );
    const runId = await announced;
    // Asked through the store, as another process's request would: this run is not stopped, it
    // learns of the cancel when it goes to pause.
    await store.runs.requestCancel(runId, userId);
    open();
    expect(await running).toMatchObject({ status: 'cancelled' });
    const kept = join(await realpath(dir), '.cadre', 'runs', `${runId}.paused.json`);
    expect(existsSync(kept)).toBe(false);
    expect(smtp.messages).toHaveLength(0);
  });

  it('ATTACK: a queued run whose stored job is damaged ends failed naming the field; the next run still runs (scripted model)', async () => {
    const model = new ScriptedModel(() => ({ parts: [{ text: 'Hello.' }] }));
    const { service: svc, store, userId } = await service(model);
    const first = await svc.run({ userId, prompt: 'Hi' });
    const stored = (await store.runs.get(first.runId, userId))!;
    const queued = await store.runs.create({
      threadId: first.threadId,
      userId,
      agent: stored.agent,
      status: 'queued',
      definitionSnapshot: await store.runs.getDefinition(stored.definitionHash),
      definitionHash: stored.definitionHash,
      model: stored.model,
      job: { kind: 'start', prompt: 'Hi again', messageSeq: 1 },
    });
    await sql`update runs set job = ${'{"kind":"start","prompt":7}'} where id = ${queued.id}`.execute(
      (store as KyselyStore).db,
    );
    // Reading it refuses the job, naming the field, until a worker has ended it.
    await expect(store.runs.get(queued.id, userId)).rejects.toThrow(/stored run job/);
    // The worker leases it on its next poll (no event to wait on): bounded.
    const ended = await until(async () => {
      const run = await store.runs.get(queued.id, userId).catch(() => undefined);
      return run?.status === 'failed' ? run : undefined;
    });
    expect(ended.summary).toMatch(
      new RegExp(`The stored run job of run ${queued.id} is not valid: prompt: `),
    );
    expect(ended.job).toBeUndefined();
    expect((await svc.run({ userId, prompt: 'Still there?' })).status).toBe('completed');
  });

  it('pauses for approval, sends nothing until approved, then sends exactly once and finishes', async () => {
    const { service: svc, userId } = await service(mailer());
    const paused = await svc.run({ userId, prompt: 'Mail Bob' });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(paused.approvals).toEqual([
      expect.objectContaining({ tool: 'gmail_send', preview: 'Send "Hi" to bob@example.com' }),
    ]);
    expect(paused.actions).toEqual([
      expect.objectContaining({
        tool: 'gmail_send',
        status: 'awaiting_confirmation',
        requiresApproval: true,
      }),
    ]);
    expect(smtp.messages).toHaveLength(0);
    expect((await svc.getThread(userId, paused.threadId))?.messages.at(-1)?.content).toMatch(
      /I need your approval to:\n- Send "Hi" to bob@example.com/,
    );
    expect(await svc.pendingApprovals(userId)).toHaveLength(1);

    const approvalId = paused.approvals[0]!.approvalId;
    const done = await svc.resolveApproval({ userId, approvalId, decision: 'approve_once' });
    expect(done.status).toBe('completed');
    expect(done.summary).toContain('accepted');
    expect(done.actions[0]).toMatchObject({ status: 'completed', approvalId });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]?.rcptTo).toEqual(['bob@example.com']);
    await expect(
      svc.resolveApproval({ userId, approvalId, decision: 'approve_once' }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(smtp.messages).toHaveLength(1);
    expect(await svc.verifyAudit()).toMatchObject({ ok: true });
    const audit = await svc.audit(userId, done.runId);
    expect(audit.map((a) => a.executionStatus)).toEqual([
      'awaiting_confirmation',
      'awaiting_confirmation',
      'completed',
    ]);
    expect(JSON.stringify(audit)).not.toContain('bob@example.com');
  });

  it('a resumed run streams the same seqs it stores, so a client can re-attach with ?after=', async () => {
    const { service: svc, userId } = await service(mailer());
    const streamed: number[] = [];
    const paused = await svc.run(
      { userId, prompt: 'Mail Bob' },
      { onEvent: (e) => streamed.push(e.seq) },
    );
    await svc.resolveApproval(
      { userId, approvalId: paused.approvals[0]!.approvalId, decision: 'approve_once' },
      { onEvent: (e) => streamed.push(e.seq) },
    );
    const stored = ((await svc.readEvents(userId, paused.runId, 0)) ?? []).map((e) => e.seq);
    expect(streamed).toEqual(stored);
    expect(stored).toEqual(stored.map((_, i) => i + 1));
  });

  it('a rejection reaches the model with the feedback and nothing is sent', async () => {
    const { service: svc, userId } = await service(mailer());
    const paused = await svc.run({ userId, prompt: 'Mail Bob' });
    const done = await svc.resolveApproval({
      userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'reject',
      feedback: 'Not Bob, Carol',
    });
    expect(done.status).toBe('completed');
    expect(done.summary).toContain('Not Bob, Carol');
    expect(done.actions[0]?.status).toBe('rejected');
    expect(smtp.messages).toHaveLength(0);
  });

  it('"always allow this recipient" stores a grant: the next mail to them needs no approval', async () => {
    const { service: svc, userId } = await service(mailer());
    const paused = await svc.run({ userId, prompt: 'Mail Bob' });
    await svc.resolveApproval({
      userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'approve_and_always_allow_recipient',
    });
    const second = await svc.run({ userId, prompt: 'Mail Bob again', threadId: paused.threadId });
    expect(second.status).toBe('completed');
    expect(second.actions).toEqual([
      expect.objectContaining({ status: 'completed', requiresApproval: false }),
    ]);
    expect(smtp.messages).toHaveLength(2);
  });

  it("another user's approval, run and thread are not found", async () => {
    const { service: svc, userId, otherId } = await service(mailer());
    const paused = await svc.run({ userId, prompt: 'Mail Bob' });
    await expect(
      svc.resolveApproval({
        userId: otherId,
        approvalId: paused.approvals[0]!.approvalId,
        decision: 'approve_once',
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await svc.getRun(otherId, paused.runId)).toBeUndefined();
    expect(await svc.getThread(otherId, paused.threadId)).toBeUndefined();
    await expect(
      svc.run({ userId: otherId, prompt: 'x', threadId: paused.threadId }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(smtp.messages).toHaveLength(0);
  });

  it('a run whose model cannot be reached ends failed with the reason, instead of being retried forever', async () => {
    const store = await openStore({ url: join(dir, 'cadre.db') });
    // No model client and no API key: the model cannot even be chosen.
    const svc = await createRunService({ store, cwd: dir, env: { HOME: dir } });
    opened.push({ store, service: svc });
    const user = await store.auth.ensureUser('ann');
    const response = await svc.run({ userId: user.id, prompt: 'Hi' });
    expect(response.status).toBe('failed');
    expect(response.summary).toMatch(/could not go on: .*GEMINI_API_KEY/);
    // A setup problem, not an internal error: /v1 answers it 503 config_error.
    expect(response.errorCode).toBe('config_error');
    // The thread carries the reason as the run's reply, so the page shows it in the thread.
    const thread = await svc.getThread(user.id, response.threadId);
    expect(thread?.messages.map((m) => [m.role, m.runId])).toEqual([
      ['user', response.runId],
      ['assistant', response.runId],
    ]);
    expect(thread?.messages[1]?.content).toMatch(/GEMINI_API_KEY/);
  });

  it('a request that goes away detaches: the run finishes without it', async () => {
    const { service: svc, userId } = await service(
      new ScriptedModel([{ parts: [{ text: 'Done anyway.' }], delayMs: 200 }]),
    );
    const leave = new AbortController();
    let runId = '';
    const detached = svc.run(
      { userId, prompt: 'Take your time' },
      {
        signal: leave.signal,
        onStarted: (ids) => {
          runId = ids.runId;
          leave.abort();
        },
      },
    );
    await expect(detached).rejects.toThrow();
    const followed = await svc.followRun(userId, runId, 0, {});
    expect(followed).toMatchObject({ status: 'completed', summary: 'Done anyway.' });
  });

  it('cancelling stops a running run wherever it runs, and ends a waiting one with its approvals', async () => {
    const slow = new ScriptedModel((r): ScriptedTurn =>
      lastParts(r).some((p) => p.kind === 'text' && p.text.includes('slowly'))
        ? { parts: [{ text: 'never' }], delayMs: 30_000 }
        : send('bob@example.com'),
    );
    const { service: svc, userId, otherId } = await service(slow);
    let started = (_runId: string): void => undefined;
    const announced = new Promise<string>((resolve) => (started = resolve));
    const running = svc.run(
      { userId, prompt: 'Answer slowly' },
      { onStarted: (ids) => started(ids.runId) },
    );
    const runId = await announced;
    expect(await svc.cancelRun(otherId, runId)).toBeUndefined();
    await svc.cancelRun(userId, runId);
    // Its own status: a person stopping a run is not the run failing.
    expect(await running).toMatchObject({ status: 'cancelled', summary: 'Cancelled.' });
    expect((await svc.getRun(userId, runId))?.run).toMatchObject({ errorCode: 'cancelled' });

    const waiting = await svc.run({ userId, prompt: 'Mail Bob' });
    expect(waiting.status).toBe('awaiting_confirmation');
    expect(await svc.cancelRun(userId, waiting.runId)).toMatchObject({ status: 'cancelled' });
    expect(await svc.pendingApprovals(userId)).toEqual([]);
    await expect(
      svc.resolveApproval({
        userId,
        approvalId: waiting.approvals[0]!.approvalId,
        decision: 'approve_once',
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(smtp.messages).toHaveLength(0);
  });

  it('pending approvals survive a restart; a side effect caught mid-flight by a dead process is recorded interrupted, never re-run, and the run goes on', async () => {
    const model = mailer();
    const first = await service(model);
    const paused = await first.service.run({ userId: first.userId, prompt: 'Mail Bob' });
    const { service: dead, store } = opened.pop()!;
    await store.close();
    // The "dead" process's worker must not outlive the test, polling a closed store.
    await dead.close().catch(() => undefined);

    const second = await service(model);
    const pending = await second.service.pendingApprovals(second.userId);
    expect(pending.map((p) => p.approvalId)).toEqual([paused.approvals[0]!.approvalId]);
    const done = await second.service.resolveApproval({
      userId: second.userId,
      approvalId: pending[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(done.status).toBe('completed');
    expect(smtp.messages).toHaveLength(1);

    // A process resolves the next approval, leases the run, starts sending, and dies.
    const again = await second.service.run({
      userId: second.userId,
      prompt: 'Mail Carol',
      threadId: paused.threadId,
    });
    const { service: s2service, store: s2 } = opened.pop()!;
    await s2service.close();
    await s2.approvals.resolve(again.approvals[0]!.approvalId, {
      userId: second.userId,
      decision: 'approve_once',
    });
    expect((await s2.queue.leaseNext('a-process-that-dies', 1))?.run.id).toBe(again.runId);
    const action = (await s2.actions.list(again.runId))[0]!;
    await s2.actions.transition(action.id, { from: 'awaiting_confirmation', to: 'executing' });
    await s2.close();

    // The next process takes the run over once the lease is gone: the effect is never re-run,
    // the model is told it may have happened, and the run goes on to its end.
    const third = await service(model);
    const followed = await third.service.followRun(third.userId, again.runId, 0, {});
    expect(followed?.status).toBe('completed');
    const run = await third.service.getRun(third.userId, again.runId);
    expect(run?.actions[0]).toMatchObject({ status: 'interrupted', errorCode: 'interrupted' });
    expect(run?.events.map((e) => e.type)).toContain('run_taken_over');
    const trail = await third.service.audit(third.userId, again.runId);
    expect(trail.filter((e) => e.errorCode === 'interrupted').map((e) => e.actionId)).toEqual([
      action.id,
    ]);
    expect(JSON.stringify(lastParts(model.requests.at(-1)!))).toContain(
      'may or may not have happened',
    );
    expect(await third.service.pendingApprovals(third.userId)).toHaveLength(0);
    expect(smtp.messages).toHaveLength(1);
  });

  it('a recorded run taken over after it resumed keeps its recording: the takeover goes on with it to the end (scripted model)', async () => {
    const model = mailer();
    const first = await service(model);
    const paused = await first.service.run({
      userId: first.userId,
      prompt: 'Mail Bob',
      record: true,
    });
    const kept = join(await realpath(dir), '.cadre', 'runs', `${paused.runId}.paused.json`);
    expect(existsSync(kept)).toBe(true);
    const { service: s1service, store: s1 } = opened.pop()!;
    await s1service.close();

    // A process resolves the approval, leases the run and resumes it: the mail goes, and the
    // next turn is checkpointed (running, so the next owner recovers it rather than resumes it)
    // before its effects. Then the process dies.
    await s1.approvals.resolve(paused.approvals[0]!.approvalId, {
      userId: first.userId,
      decision: 'approve_once',
    });
    const leased = await s1.queue.leaseNext('a-process-that-dies', 1);
    expect(leased?.run.id).toBe(paused.runId);
    const { pendingTurn, ...state } = await leased!.run.state!.read();
    const call = pendingTurn!.calls[0]!;
    await s1.queue.checkpoint(paused.runId, {
      owner: 'a-process-that-dies',
      state: {
        ...state,
        status: 'running',
        messages: [
          ...state.messages,
          {
            role: 'user',
            parts: [
              {
                kind: 'function_response',
                id: call.id,
                name: call.name,
                response: { output: 'sent' },
              },
            ],
          },
        ],
      },
    });
    await s1.close();

    const second = await service(model);
    const followed = await second.service.followRun(second.userId, paused.runId, 0, {});
    expect(followed?.status).toBe('completed');
    expect(
      (await second.service.getRun(second.userId, paused.runId))?.events.map((e) => e.type),
    ).toContain('run_taken_over');
    const file = await second.service.trajectoryFile(second.userId, paused.runId);
    expect(file?.metadata.terminate_reason).toBe('GOAL');
    expect(file?.approvals.map((a) => a.decision.kind)).toEqual(['approve']);
    expect(existsSync(kept)).toBe(false);
  });
});
