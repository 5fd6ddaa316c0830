import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { createCalendarEventTool } from '../../tools/calendar/calendar-event-create.js';
import { contextFor } from '../../tools/builtin/testing/test-support.js';
import { startSmtpServer, type TestSmtpServer } from '../../tools/mail/testing/test-support.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';

// A process dies in the middle of a side effect, so its outcome is unknown. An at-most-once
// tool (mail) is never run again; an exactly-once tool (a calendar event with a UID per action)
// is run again by the next owner and leaves exactly one event, whether or not the dead process
// had already written it. Scripted model, real SQLite, real calendar file, real SMTP.
const AUDIT_KEY = randomBytes(32);
let dir: string;
let smtp: TestSmtpServer;
const opened: Array<{ store: Store; service: RunService }> = [];
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
afterEach(async () => {
  for (const { service, store } of opened.splice(0)) {
    await service.close();
    await store.close();
  }
  await rm(dir, { recursive: true, force: true });
});

async function service(model: ScriptedModel) {
  const store = await openStore({ url: join(dir, 'cadre.db'), auditKey: AUDIT_KEY });
  const svc = await createRunService({
    store,
    cwd: dir,
    env: { CADRE_SMTP_URL: smtp.url(), CADRE_MAIL_FROM: 'bot@example.com', HOME: dir },
    modelClient: model,
  });
  opened.push({ store, service: svc });
  return { service: svc, store, userId: (await store.auth.ensureUser('ann')).id };
}

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const answered = (r: ModelRequest) => lastParts(r).some((p) => p.kind === 'function_response');
const EVENT = {
  title: 'Design review',
  start: '2026-12-01T09:00:00Z',
  end: '2026-12-01T09:30:00Z',
  attendees: ['bob@example.com'],
};
const booker = () =>
  new ScriptedModel((r): ScriptedTurn =>
    answered(r)
      ? { parts: [{ text: `Result: ${JSON.stringify(lastParts(r))}` }] }
      : { parts: [{ functionCall: { name: 'calendar_event_create', args: EVENT } }] },
  );

/** Starts a run, approves it, and leaves its action `executing` under a process that dies. */
async function dieMidCall(model: ScriptedModel, beforeDeath?: (callId: string) => Promise<void>) {
  const first = await service(model);
  const paused = await first.service.run({ userId: first.userId, prompt: 'Book the review' });
  expect(paused.status).toBe('awaiting_confirmation');
  const { service: svc, store } = opened.pop()!;
  await svc.close();
  await store.approvals.resolve(paused.approvals[0]!.approvalId, {
    userId: first.userId,
    decision: 'approve_once',
  });
  expect((await store.queue.leaseNext('a-process-that-dies', 1))?.run.id).toBe(paused.runId);
  const action = (await store.actions.list(paused.runId))[0]!;
  await store.actions.transition(action.id, { from: 'awaiting_confirmation', to: 'executing' });
  await beforeDeath?.(action.callId);
  await store.close();
  return { runId: paused.runId, actionId: action.id };
}

const events = async () =>
  ((await readFile(join(dir, 'calendar.ics'), 'utf8').catch(() => '')).match(/BEGIN:VEVENT/g) ?? [])
    .length;

describe('exactly-once tools run again after a death mid-call; at-most-once ones never do', () => {
  it('the calendar event cut off before it was written is created by the next owner, once', async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-rerun-')));
    const model = booker();
    const { runId, actionId } = await dieMidCall(model);
    const next = await service(model);
    const followed = await next.service.followRun(next.userId, runId, 0, {});
    expect(followed?.status).toBe('completed');
    expect(await events()).toBe(1);
    const run = await next.service.getRun(next.userId, runId);
    expect(run?.actions[0]).toMatchObject({ id: actionId, status: 'completed' });
    const told = JSON.stringify(lastParts(model.requests.at(-1)!));
    expect(told).toContain('"created":true');
    expect(told).not.toContain('may or may not have happened');
    const trail = await next.service.audit(next.userId, runId);
    // After the person's decision: cut off (outcome unknown), then run again and completed.
    const codes = trail.filter((e) => e.actionId === actionId).map((e) => e.errorCode ?? 'ok');
    expect(codes.slice(-2)).toEqual(['interrupted', 'ok']);
  });

  it('an event the dead process had already written is found, not added a second time', async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-rerun-')));
    const model = booker();
    const { runId } = await dieMidCall(model, async (callId) => {
      // The dying process got as far as writing the event (same action, same UID).
      const tool = createCalendarEventTool({ env: {} });
      const ctx = { ...contextFor(dir, new AbortController().signal), actionId: callId };
      await tool.execute(EVENT, ctx);
    });
    expect(await events()).toBe(1);
    const next = await service(model);
    expect((await next.service.followRun(next.userId, runId, 0, {}))?.status).toBe('completed');
    expect(await events()).toBe(1);
    expect(JSON.stringify(lastParts(model.requests.at(-1)!))).toContain('"created":false');
  });
});
