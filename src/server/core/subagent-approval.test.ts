import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { startSmtpServer, type TestSmtpServer } from '../../tools/mail/testing/test-support.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';
import { serviceAgentTools } from '../../mcp/server/service-agent-tools.js';
import type { ApprovalQuestion } from '../../mcp/server/approval-question.js';
import { settledReply } from '../http/openai-compat/run-outcome.js';
import { runTask } from '../../a2a/serve/run-task.js';

const AUDIT_KEY = randomBytes(32);

let dir: string;
let smtp: TestSmtpServer;
const opened: Array<{ store: Store; service: RunService }> = [];

const agent = (name: string, tools: string[]): string =>
  `name: ${name}\ndescription: ${name}\npromptConfig:\n  systemPrompt: "ROLE:${name} Do what you are asked."\ntoolConfig:\n  tools: [${tools.join(', ')}]\n`;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-subagent-approval-'));
  await mkdir(join(dir, 'agents'));
  await writeFile(join(dir, 'agents', 'mailer.yaml'), agent('mailer', ['gmail_send']));
  await writeFile(join(dir, 'agents', 'helper.yaml'), agent('helper', []));
  await writeFile(join(dir, 'agents', 'desk.yaml'), agent('desk', ['mailer', 'helper']));
  await writeFile(join(dir, 'agents', 'team.yaml'), agent('team', ['mailer']));
  await writeFile(join(dir, 'agents', 'office.yaml'), agent('office', ['team']));
  await writeFile(
    join(dir, 'agents', 'frontdesk.yaml'),
    'name: frontdesk\ndescription: Routes\nkind: router\ndomains: [mailer, helper]\ndomain_timeout_secs: 60\npromptConfig:\n  systemPrompt: Route it.\n',
  );
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
  model: ScriptedModel,
): Promise<{ service: RunService; store: Store; userId: string }> {
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

const role = (r: ModelRequest): string => /ROLE:(\w+)/.exec(r.systemInstruction ?? '')?.[1] ?? '?';
const last = (r: ModelRequest): string => JSON.stringify(r.messages.at(-1) ?? null);
const answered = (r: ModelRequest): boolean =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');

/** desk asks mailer (once per recipient, in one turn) and, with `helper`, a helper beside it. */
function deskModel(recipients: string[], helper = false): ScriptedModel {
  return new ScriptedModel((r): ScriptedTurn => {
    switch (role(r)) {
      case 'mailer': {
        if (answered(r)) return { parts: [{ text: `mailer: ${last(r)}` }] };
        const to = /mail (\S+@example\.com)/.exec(JSON.stringify(r.messages))?.[1] ?? '';
        return {
          parts: [
            { functionCall: { name: 'gmail_send', args: { to, subject: 'Hi', body: 'Hello' } } },
          ],
        };
      }
      case 'helper':
        return { parts: [{ text: 'helper done' }] };
      case 'team':
        return answered(r)
          ? { parts: [{ text: `team: ${last(r)}` }] }
          : {
              parts: [
                { functionCall: { name: 'mailer', args: { prompt: `mail ${recipients[0]}` } } },
              ],
            };
      case 'office':
        return answered(r)
          ? { parts: [{ text: `office: ${last(r)}` }] }
          : { parts: [{ functionCall: { name: 'team', args: { prompt: 'mail them' } } }] };
      default:
        if (r.tools.some((t) => t.name === 'route'))
          return {
            parts: [
              {
                functionCall: {
                  name: 'route',
                  args: {
                    targets: [
                      { domain: 'mailer', intent: `mail ${recipients[0]}` },
                      { domain: 'helper', intent: 'help' },
                    ],
                  },
                },
              },
            ],
          };
        if (r.tools.length === 0) return { parts: [{ text: `merged: ${last(r)}` }] };
        if (answered(r)) return { parts: [{ text: `desk: ${last(r)}` }] };
        return {
          parts: [
            ...recipients.map((to) => ({
              functionCall: { name: 'mailer', args: { prompt: `mail ${to}` } },
            })),
            ...(helper ? [{ functionCall: { name: 'helper', args: { prompt: 'help' } } }] : []),
          ],
        };
    }
  });
}

describe('server: a subagent’s side effect waits for a person (scripted model, real SMTP and SQLite)', () => {
  it('the whole run waits; approving once sends exactly once from the child, which goes on', async () => {
    const model = deskModel(['bob@example.com'], true);
    const { service: svc, userId } = await service(model);
    const paused = await svc.run({ userId, prompt: 'Mail Bob', agent: 'desk' });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(paused.approvals).toEqual([
      expect.objectContaining({ tool: 'gmail_send', path: ['desk', 'mailer', 'gmail_send'] }),
    ]);
    expect(smtp.messages).toHaveLength(0);
    // Every view of the approval names who asks, from the run's agent down.
    const path = ['desk', 'mailer', 'gmail_send'];
    expect((await svc.pendingApprovals(userId)).map((a) => a.path)).toEqual([path]);
    expect((await svc.pendingApprovalPage(userId, { limit: 10 })).approvals[0]?.path).toEqual(path);
    expect((await svc.getThread(userId, paused.threadId))?.pendingApprovals[0]?.path).toEqual(path);
    expect((await svc.getThread(userId, paused.threadId))?.messages.at(-1)?.content).toMatch(
      /I need your approval to:\n- desk › mailer › gmail_send: Send "Hi" to bob@example\.com/,
    );
    // The sibling that needed nobody ran to its end before the run paused.
    const before = await svc.getRun(userId, paused.runId);
    expect(
      before?.events.some((e) => e.type === 'subagent_finished' && e.event.data.agent === 'helper'),
    ).toBe(true);

    const started = performance.now();
    const done = await svc.resolveApproval({
      userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    const latencyMs = performance.now() - started;
    expect(done.status).toBe('completed');
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]?.rcptTo).toEqual(['bob@example.com']);
    // The child went on from its own conversation: one call, one answer, then its report.
    const childTurns = model.requests.filter((r) => role(r) === 'mailer');
    expect(childTurns).toHaveLength(2);
    expect(last(childTurns[1]!)).toContain('accepted');
    expect(done.summary).toContain('mailer:');
    console.info(
      `approval latency, depth-1 child (resolve → run finished): ${latencyMs.toFixed(0)} ms`,
    );
  });

  it('a rejection with feedback reaches the child that asked; nothing is sent', async () => {
    const model = deskModel(['bob@example.com']);
    const { service: svc, userId } = await service(model);
    const paused = await svc.run({ userId, prompt: 'Mail Bob', agent: 'desk' });
    const done = await svc.resolveApproval({
      userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'reject',
      feedback: 'Not Bob, Carol',
    });
    expect(done.status).toBe('completed');
    expect(smtp.messages).toHaveLength(0);
    const child = model.requests.filter((r) => role(r) === 'mailer').at(-1);
    expect(last(child!)).toContain('Not Bob, Carol');
    const desk = model.requests.filter((r) => role(r) === 'desk').at(-1);
    expect(last(desk!)).not.toContain('The user rejected this call to mailer');
  });

  it('two children waiting are one batch with a decision each', async () => {
    const model = deskModel(['bob@example.com', 'cy@example.com']);
    const { service: svc, userId } = await service(model);
    const paused = await svc.run({ userId, prompt: 'Mail both', agent: 'desk' });
    expect(paused.approvals).toHaveLength(2);
    expect(new Set(paused.approvals.map((a) => a.batchId)).size).toBe(1);
    const [bob, cy] = paused.approvals;
    const first = await svc.resolveApproval({
      userId,
      approvalId: bob!.approvalId,
      decision: 'approve_once',
    });
    expect(first.status).toBe('awaiting_confirmation');
    const done = await svc.resolveApproval({
      userId,
      approvalId: cy!.approvalId,
      decision: 'reject',
      feedback: 'cy is away',
    });
    expect(done.status).toBe('completed');
    expect(smtp.messages.map((m) => m.rcptTo)).toEqual([['bob@example.com']]);
  });

  it('"always allow" stores the grant; the next mail from the child needs no approval', async () => {
    const model = deskModel(['bob@example.com']);
    const { service: svc, store, userId } = await service(model);
    const paused = await svc.run({ userId, prompt: 'Mail Bob', agent: 'desk' });
    await svc.resolveApproval({
      userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'approve_and_always_allow_recipient',
    });
    // Bound to the agent that earned it: the mailer, not the desk above it.
    expect((await store.grants.list(userId)).map((g) => [g.agent, g.tool, g.recipient])).toEqual([
      ['mailer', 'gmail_send', 'bob@example.com'],
    ]);
    const second = await svc.run({
      userId,
      prompt: 'Mail Bob again',
      agent: 'desk',
      threadId: paused.threadId,
    });
    expect(second.status).toBe('completed');
    expect(smtp.messages).toHaveLength(2);
  });

  it('a restart mid-tree: another service on the same database resumes the child, which sends once', async () => {
    const model = deskModel(['bob@example.com']);
    const first = await service(model);
    const paused = await first.service.run({
      userId: first.userId,
      prompt: 'Mail Bob',
      agent: 'desk',
    });
    const { service: gone, store } = opened.pop()!;
    await gone.close();
    await store.close();

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
  });

  it('depth 2: the approval names the whole path, and the send runs once, soon after the decision', async () => {
    const model = deskModel(['bob@example.com']);
    const { service: svc, userId } = await service(model);
    const paused = await svc.run({ userId, prompt: 'Mail Bob', agent: 'office' });
    expect(paused.approvals.map((a) => a.path)).toEqual([
      ['office', 'team', 'mailer', 'gmail_send'],
    ]);
    // /v1 (chat and responses share the outcome) and A2A's input-required say who asks too.
    const { approvalId } = paused.approvals[0]!;
    const v1 = settledReply(paused, 'http://127.0.0.1:1');
    expect(v1.cadre.approvals[0]?.path).toEqual(['office', 'team', 'mailer', 'gmail_send']);
    expect(v1.content).toContain(
      `- office › team › mailer › gmail_send: Send "Hi" to bob@example.com (approval ${approvalId})`,
    );
    const task = runTask(paused);
    const asked = task.status?.message?.parts[0]?.content;
    expect(asked?.$case === 'text' && asked.value).toContain(
      `- office › team › mailer › gmail_send: Send "Hi" to bob@example.com (approval ${approvalId})`,
    );
    // When the mail reaches the SMTP server, as the server records it.
    let deliveredAt = 0;
    const push = smtp.messages.push.bind(smtp.messages);
    smtp.messages.push = (...delivered) => ((deliveredAt = performance.now()), push(...delivered));
    const started = performance.now();
    const startedWall = Date.now();
    // approval_resolved is emitted by the child right before its call runs; its timestamp says
    // when that was, and the stream says when an attached client heard of it.
    let resolvedAt = 0;
    let heardAt = 0;
    const done = await svc.resolveApproval(
      { userId, approvalId: paused.approvals[0]!.approvalId, decision: 'approve_once' },
      {
        onEvent: (e) => {
          if (e.depth !== 2 || e.type !== 'approval_resolved') return;
          resolvedAt = Date.parse(e.timestamp);
          heardAt = performance.now();
        },
      },
    );
    expect(done.status).toBe('completed');
    expect(smtp.messages).toHaveLength(1);
    expect(resolvedAt).toBeGreaterThan(0);
    expect(deliveredAt).toBeGreaterThan(0);
    console.info(
      `approval latency, depth-2 child: resolve request → its gmail_send starts ${resolvedAt - startedWall} ms (event time), ` +
        `→ mail at the SMTP server ${(deliveredAt - started).toFixed(0)} ms; the attached stream hears of it at ${(heardAt - started).toFixed(0)} ms`,
    );
  });

  it('a process dying during the child’s approved send: the next one never sends it again', async () => {
    const model = deskModel(['bob@example.com']);
    const first = await service(model);
    const paused = await first.service.run({
      userId: first.userId,
      prompt: 'Mail Bob',
      agent: 'desk',
    });
    const { service: gone, store } = opened.pop()!;
    await gone.close();
    // The decision is stored, a process leases the run, starts the child's send, and dies.
    await store.approvals.resolve(paused.approvals[0]!.approvalId, {
      userId: first.userId,
      decision: 'approve_once',
    });
    expect((await store.queue.leaseNext('a-process-that-dies', 1))?.run.id).toBe(paused.runId);
    const action = (await store.actions.list(paused.runId))[0]!;
    expect(action.callId).toMatch(/^mailer@[0-9a-f]{8}\//);
    await store.actions.transition(action.id, { from: 'awaiting_confirmation', to: 'executing' });
    await store.close();

    const next = await service(model);
    const followed = await next.service.followRun(next.userId, paused.runId, 0, {});
    expect(followed?.status).toBe('completed');
    const run = await next.service.getRun(next.userId, paused.runId);
    expect(run?.actions[0]).toMatchObject({ status: 'interrupted' });
    expect(smtp.messages).toHaveLength(0);
    // The child that asked is the one told the send may or may not have happened.
    const child = model.requests.filter((r) => role(r) === 'mailer').at(-1);
    expect(last(child!)).toContain('may or may not have happened');
  });

  it('a router whose domain sends mail: the run waits, the route is not asked again, the mail goes once', async () => {
    const model = deskModel(['bob@example.com']);
    const { service: svc, userId } = await service(model);
    const paused = await svc.run({ userId, prompt: 'Mail Bob', agent: 'frontdesk' });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(paused.approvals.map((a) => a.path)).toEqual([['frontdesk', 'mailer', 'gmail_send']]);
    expect(smtp.messages).toHaveLength(0);
    const done = await svc.resolveApproval({
      userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(done.status).toBe('completed');
    expect(smtp.messages).toHaveLength(1);
    expect(model.requests.filter((r) => r.tools.some((t) => t.name === 'route'))).toHaveLength(1);
    expect(done.summary).toContain('merged');
  });

  it('through the server’s MCP tools, the elicitation names the path and the mail goes once', async () => {
    const model = deskModel(['bob@example.com']);
    const { service: svc, userId } = await service(model);
    const questions: ApprovalQuestion[] = [];
    const tools = serviceAgentTools({ service: svc, userId });
    const result = await tools.call(
      'desk',
      { prompt: 'Mail Bob' },
      {
        signal: new AbortController().signal,
        progress: () => {},
        ask: (question) => (questions.push(question), Promise.resolve({ kind: 'approve' })),
      },
    );
    expect(result?.isError).toBeFalsy();
    expect(questions.map((q) => q.agent)).toEqual(['desk › mailer']);
    expect(smtp.messages).toHaveLength(1);
  });

  it('a router restarted while its domain waits: another service resumes it, and the mail goes once', async () => {
    const model = deskModel(['bob@example.com']);
    const first = await service(model);
    const paused = await first.service.run({
      userId: first.userId,
      prompt: 'Mail Bob',
      agent: 'frontdesk',
    });
    const { service: gone, store } = opened.pop()!;
    await gone.close();
    await store.close();

    const second = await service(model);
    const done = await second.service.resolveApproval({
      userId: second.userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(done.status).toBe('completed');
    expect(smtp.messages).toHaveLength(1);
    expect(model.requests.filter((r) => r.tools.some((t) => t.name === 'route'))).toHaveLength(1);
  });
});
