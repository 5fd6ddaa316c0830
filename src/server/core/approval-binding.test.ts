import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { RunState } from '../../contracts/run-state.js';
import type { ModelRequest } from '../../model/types.js';
import { inputHashOf } from '../../runtime/calls/approval-binding.js';
import { openKyselyStore } from '../../store/open-store.js';
import type { KyselyStore } from '../../store/kysely-store.js';
import { startSmtpServer, type TestSmtpServer } from '../../tools/mail/testing/test-support.js';
import type { RunResponse, RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';

/**
 * Approvals are bound to what the person approved (tool, arguments,
 * definition, the tool's side-effect class). Each test changes one of them
 * between the pause and the decision, as someone with the database or the
 * project's files could, and counts what really happened: the mail the local
 * SMTP server received, the lines a code tool appended. A stale approval
 * sends nothing and the person is asked again.
 */
const AUDIT_KEY = randomBytes(32);
const MAILER = `name: mailer
description: Sends mail and stamps.
toolConfig:
  tools: [gmail_send, stamp]
promptConfig:
  systemPrompt: Do what you are asked.
`;
/** A code tool whose side effect is a line in stamps.txt beside its project. */
const stampTool = (approval: 'require' | 'auto') =>
  `import { appendFile } from 'node:fs/promises';
export default { name: 'stamp', description: 'Stamps a label.', inputSchema: { type: 'object' },
  sideEffect: true, defaultApproval: '${approval}',
  execute: async ({ label }) => { await appendFile(new URL('../stamps.txt', import.meta.url), label + '\\n'); return 'stamped'; } };
`;

let smtp: TestSmtpServer;
let root: string;
let db: string;
const opened: Array<{ service: RunService; close: () => Promise<void> }> = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cadre-binding-')));
  db = join(root, 'cadre.db');
  smtp.messages.length = 0;
});
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  await rm(root, { recursive: true, force: true });
});

/** A project folder (agents/mailer.yaml, tools/stamp.tool.mjs) under the test's root. */
async function project(
  name: string,
  options: { agent?: string; stamp?: 'require' | 'auto' } = {},
): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'agents'), { recursive: true });
  await mkdir(join(dir, 'tools'), { recursive: true });
  await writeFile(join(dir, 'agents', 'mailer.yaml'), options.agent ?? MAILER);
  await writeFile(join(dir, 'tools', 'stamp.tool.mjs'), stampTool(options.stamp ?? 'require'));
  return dir;
}

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const answered = (r: ModelRequest) => lastParts(r).some((p) => p.kind === 'function_response');
/** The scripted model: one call, then a reply naming the tool's answer. */
const oneCall = (name: string, args: Record<string, unknown>) =>
  new ScriptedModel((r): ScriptedTurn =>
    answered(r)
      ? { parts: [{ text: `Result: ${JSON.stringify(lastParts(r))}` }] }
      : { parts: [{ functionCall: { name, args } }] },
  );
const MAIL_BOB = { to: 'bob@example.com', subject: 'Hi', body: 'Hello there' };

/** A run service over the shared database, for the project in `cwd` (a "restart" opens another). */
async function open(cwd: string, model: ScriptedModel) {
  const store = await openKyselyStore({ url: db, auditKey: AUDIT_KEY });
  const service = await createRunService({
    store,
    cwd,
    env: { CADRE_SMTP_URL: smtp.url(), CADRE_MAIL_FROM: 'bot@example.com', HOME: cwd },
    modelClient: model,
  });
  const entry = {
    service,
    close: async () => {
      await service.close();
      await store.close();
    },
  };
  opened.push(entry);
  const user = await store.auth.ensureUser('ann');
  return { service, store, userId: user.id, close: entry.close };
}

async function pausedOn(svc: RunService, userId: string): Promise<RunResponse> {
  const paused = await svc.run({ userId, agent: 'mailer', prompt: 'Go' });
  expect(paused.status).toBe('awaiting_confirmation');
  expect(paused.approvals).toHaveLength(1);
  return paused;
}

const approve = (svc: RunService, userId: string, approvalId: string) =>
  svc.resolveApproval({ userId, approvalId, decision: 'approve_once' });

const stamps = async (dir: string) =>
  (await readFile(join(dir, 'stamps.txt'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

/** Asked again: the run waits on one new approval (not the one decided), the old one stale. */
async function askedAgain(
  store: KyselyStore,
  userId: string,
  after: RunResponse,
  old: string,
): Promise<string> {
  expect(after.status).toBe('awaiting_confirmation');
  expect(after.approvals).toHaveLength(1);
  const fresh = after.approvals[0]?.approvalId ?? '';
  expect(fresh).not.toBe(old);
  expect((await store.approvals.get(old, userId))?.status).toBe('stale');
  return fresh;
}

describe('server: approvals bound to what was approved (scripted model, real SMTP and SQLite)', () => {
  it('happy path: an unchanged call is sent exactly once', async () => {
    const dir = await project('p');
    const { service: svc, userId, store } = await open(dir, oneCall('gmail_send', MAIL_BOB));
    const paused = await pausedOn(svc, userId);
    const approvalId = paused.approvals[0]?.approvalId ?? '';
    const done = await approve(svc, userId, approvalId);
    expect(done.status).toBe('completed');
    expect(smtp.messages).toHaveLength(1);
    expect((await store.approvals.get(approvalId, userId))?.status).toBe('approved');
  });

  it('the run state’s arguments tampered in the database: refused, nothing sent, asked again about them; that approval sends once', async () => {
    const dir = await project('p');
    const { service: svc, userId, store } = await open(dir, oneCall('gmail_send', MAIL_BOB));
    const paused = await pausedOn(svc, userId);
    const old = paused.approvals[0]?.approvalId ?? '';
    const stored = await sql<{
      state: string;
    }>`select state from runs where id = ${paused.runId}`.execute(store.db);
    // The waiting call itself (what the resume would run), not the approval or the card.
    const state = JSON.parse(stored.rows[0]?.state ?? '{}') as RunState;
    const call = state.pendingTurn?.calls[0];
    if (!call) throw new Error('no waiting call stored');
    call.args = { ...call.args, to: 'mallory@example.com' };
    await sql`update runs set state = ${JSON.stringify(state)} where id = ${paused.runId}`.execute(
      store.db,
    );

    const after = await approve(svc, userId, old);
    expect(smtp.messages).toHaveLength(0);
    const fresh = await askedAgain(store, userId, after, old);
    expect(after.approvals[0]?.preview).toContain('mallory@example.com');
    const events = (await svc.readEvents(userId, paused.runId, 0)) ?? [];
    expect(
      events
        .filter((e) => e.type === 'approval_resolved' && e.event.data.decision === 'stale')
        .map((e) => e.event.data.reason),
    ).toEqual(['the arguments changed']);

    // The person approves what they now see: sent once, to the address they saw.
    const done = await approve(svc, userId, fresh);
    expect(done.status).toBe('completed');
    expect(smtp.messages.map((m) => m.rcptTo)).toEqual([['mallory@example.com']]);
  });

  it('the waiting call and the binding stored with it both tampered: the approval’s own binding refuses it, nothing sent', async () => {
    const dir = await project('p');
    const { service: svc, userId, store } = await open(dir, oneCall('gmail_send', MAIL_BOB));
    const paused = await pausedOn(svc, userId);
    const old = paused.approvals[0]?.approvalId ?? '';
    const stored = await sql<{
      state: string;
    }>`select state from runs where id = ${paused.runId}`.execute(store.db);
    const state = JSON.parse(stored.rows[0]?.state ?? '{}') as RunState;
    const call = state.pendingTurn?.calls[0];
    const binding = call ? state.pendingTurn?.bindings?.[call.id] : undefined;
    if (!call || !binding) throw new Error('no bound waiting call stored');
    call.args = { ...call.args, to: 'mallory@example.com' };
    binding.inputHash = inputHashOf('gmail_send', call.args);
    await sql`update runs set state = ${JSON.stringify(state)} where id = ${paused.runId}`.execute(
      store.db,
    );
    const after = await approve(svc, userId, old);
    expect(smtp.messages).toHaveLength(0);
    await askedAgain(store, userId, after, old);
  });

  it('the arguments the card shows tampered in the database: the approval is stale when decided, nothing sent, asked again', async () => {
    const dir = await project('p');
    const { service: svc, userId, store } = await open(dir, oneCall('gmail_send', MAIL_BOB));
    const paused = await pausedOn(svc, userId);
    const old = paused.approvals[0]?.approvalId ?? '';
    const shown = JSON.stringify({ ...MAIL_BOB, to: 'carol@example.com' });
    await sql`update actions set args_json = ${shown} where run_id = ${paused.runId}`.execute(
      store.db,
    );
    const after = await approve(svc, userId, old);
    expect(smtp.messages).toHaveLength(0);
    await askedAgain(store, userId, after, old);
    const audit = await svc.audit(userId, paused.runId);
    expect(audit.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/no longer matches the call: not run, asking again/),
    );
    // Asked again about the call as it really is.
    expect(after.approvals[0]?.preview).toContain('bob@example.com');
  });

  it('the stored definition tampered while the file changed (restart): refused, nothing sent, asked again', async () => {
    const first = await project('p1');
    const a = await open(first, oneCall('gmail_send', MAIL_BOB));
    const paused = await pausedOn(a.service, a.userId);
    const old = paused.approvals[0]?.approvalId ?? '';
    await a.close();
    // The file now says something else, so the paused run resumes from its stored snapshot...
    const edited = MAILER.replace('Do what you are asked.', 'Mail anyone anything.');
    const second = await project('p2', { agent: edited });
    const b = await open(second, oneCall('gmail_send', MAIL_BOB));
    // ...which someone with the database rewrote to that new definition.
    await sql`update definitions set snapshot = replace(snapshot, 'Do what you are asked.', 'Mail anyone anything.')`.execute(
      b.store.db,
    );
    const after = await approve(b.service, b.userId, old);
    expect(smtp.messages).toHaveLength(0);
    await askedAgain(b.store, b.userId, after, old);
  });

  it('only the file changed between pause and resume: the run keeps its definition, so the approval holds and sends once', async () => {
    const first = await project('p1');
    const a = await open(first, oneCall('gmail_send', MAIL_BOB));
    const paused = await pausedOn(a.service, a.userId);
    await a.close();
    const second = await project('p2', {
      agent: MAILER.replace('Do what you are asked.', 'Mail anyone anything.'),
    });
    const b = await open(second, oneCall('gmail_send', MAIL_BOB));
    const done = await approve(b.service, b.userId, paused.approvals[0]?.approvalId ?? '');
    expect(done.status).toBe('completed');
    expect(smtp.messages).toHaveLength(1);
  });

  it("the tool's side-effect class changed (re-registered as approved by default, restart): refused, not run, asked again", async () => {
    const first = await project('p1');
    const a = await open(first, oneCall('stamp', { label: 'one' }));
    const paused = await pausedOn(a.service, a.userId);
    const old = paused.approvals[0]?.approvalId ?? '';
    await a.close();
    const second = await project('p2', { stamp: 'auto' });
    await cp(join(first, 'agents'), join(second, 'agents'), { recursive: true });
    const b = await open(second, oneCall('stamp', { label: 'one' }));
    const after = await approve(b.service, b.userId, old);
    expect([...(await stamps(first)), ...(await stamps(second))]).toEqual([]);
    await askedAgain(b.store, b.userId, after, old);
  });
});
