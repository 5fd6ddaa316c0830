import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../../model/types.js';
import { openStore } from '../../store/open-store.js';
import type { RunEvent, Store, ThreadMessage } from '../../store/types.js';
import { startSmtpServer, type TestSmtpServer } from '../../tools/mail/testing/test-support.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';
import { threadRuns } from './thread-runs.js';

let dir: string;
let smtp: TestSmtpServer;
let store: Store;
let service: RunService;

/** Answers after the tool's result wait until the test opens the gate. */
class GatedModel implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'scripted';
  private open = () => {};
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));

  constructor(private readonly inner: ModelClient) {}

  release(): void {
    this.open();
  }

  async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const resumed = request.messages.at(-1)?.parts.some((p) => p.kind === 'function_response');
    if (resumed) await this.gate;
    yield* this.inner.generate(request, signal);
  }
}

const mailOrReply = (request: ModelRequest): ScriptedTurn => {
  const last = request.messages.at(-1)?.parts ?? [];
  if (last.some((p) => p.kind === 'function_response')) return { parts: [{ text: 'Handled.' }] };
  return {
    parts: [
      {
        functionCall: {
          name: 'gmail_send',
          args: { to: 'bob@example.com', subject: 'Hi', body: 'Hello' },
        },
      },
    ],
  };
};

async function start(model: ModelClient): Promise<string> {
  store = await openStore({ url: join(dir, 'cadre.db') });
  service = await createRunService({
    store,
    cwd: dir,
    env: { CADRE_SMTP_URL: smtp.url(), CADRE_MAIL_FROM: 'bot@example.com', HOME: dir },
    modelClient: model,
  });
  const ann = await store.auth.ensureUser('ann');
  // The name shown with a decision is the one the deciding token belongs to.
  await store.auth.createToken(ann.id);
  return ann.id;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-thread-runs-'));
  smtp = await startSmtpServer();
});
afterEach(async () => {
  await service.close();
  await store.close();
  await smtp.close();
  await rm(dir, { recursive: true, force: true });
});

describe('thread view: the steps and decisions of its runs (scripted model, real SQLite)', () => {
  it('shows the decision as soon as it is stored, while the resumed run still goes on', async () => {
    const model = new GatedModel(new ScriptedModel(mailOrReply));
    const userId = await start(model);
    const paused = await service.run({ userId, prompt: 'Mail Bob' });
    const waiting = await service.getThread(userId, paused.threadId);
    expect(waiting?.runs).toEqual([
      { runId: paused.runId, steps: expect.any(Array) as unknown, decisions: [] },
    ]);
    expect(waiting?.runs?.[0]?.steps.map((e) => e.type)).toEqual([
      'tool_call',
      'approval_required',
    ]);

    let finished = false;
    let announce = (): void => undefined;
    const decided = new Promise<void>((resolve) => (announce = resolve));
    const resumed = service
      .resolveApproval(
        { userId, approvalId: paused.approvals[0]!.approvalId, decision: 'approve_once' },
        { onStarted: () => announce() },
      )
      .then(() => void (finished = true));
    await decided;
    // The stream's first line goes out here: the decision is stored, the run is not done.
    const during = await service.getThread(userId, paused.threadId);
    expect(finished).toBe(false);
    expect(during?.pendingApprovals).toEqual([]);
    expect(during?.runs?.[0]?.decisions).toEqual([
      expect.objectContaining({
        tool: 'gmail_send',
        decision: 'approve_once',
        decidedBy: 'ann',
        decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      }),
    ]);

    model.release();
    // The resumed run's own answer says when it is done: no polling.
    await resumed;
    const after = await service.getThread(userId, paused.threadId);
    const steps = after?.runs?.[0]?.steps ?? [];
    expect(steps.map((e) => e.type)).toEqual([
      'tool_call',
      'approval_required',
      'approval_resolved',
      'tool_result',
    ]);
    expect(steps.at(-1)?.data).toMatchObject({ ok: true });
    // Stored seqs: the page orders and de-duplicates by them.
    expect(steps.map((e) => e.seq)).toEqual([...steps.map((e) => e.seq)].sort((a, b) => a - b));
  });

  it('keeps a rejection with its feedback and who gave it', async () => {
    const model = new GatedModel(new ScriptedModel(mailOrReply));
    model.release();
    const userId = await start(model);
    const paused = await service.run({ userId, prompt: 'Mail Bob' });
    await service.resolveApproval({
      userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'reject',
      feedback: 'Ask Carol instead',
    });
    const view = await service.getThread(userId, paused.threadId);
    expect(view?.runs?.[0]?.decisions).toEqual([
      expect.objectContaining({
        decision: 'reject',
        decidedBy: 'ann',
        feedback: 'Ask Carol instead',
      }),
    ]);
    expect(smtp.messages).toHaveLength(0);
  });
});

describe('threadRuns', () => {
  const event = (seq: number, type: string): RunEvent => ({
    runId: 'r1',
    seq,
    type,
    event: { type, seq: 0, data: {} } as unknown as CadreEvent,
  });

  it('reads a long log page by page and keeps only the step events, with their stored seqs', async () => {
    // 2,500 text chunks around one call: the call sits on the third page.
    const log = Array.from({ length: 2_502 }, (_, i) =>
      event(i + 1, i === 2_400 ? 'tool_call' : i === 2_401 ? 'tool_result' : 'text_delta'),
    );
    const reads: Array<number | undefined> = [];
    const fake = {
      events: {
        read: (_runId: string, range?: { after?: number; limit?: number }) => {
          reads.push(range?.after);
          const after = range?.after ?? 0;
          return Promise.resolve(log.filter((e) => e.seq > after).slice(0, range?.limit));
        },
      },
      auth: { listTokens: () => Promise.resolve([]) },
    };
    const message: ThreadMessage = {
      id: 'm',
      threadId: 't',
      seq: 1,
      role: 'user',
      content: 'x',
      runId: 'r1',
      createdAt: '',
    };
    const runs = await threadRuns(fake, 'u', [message], []);
    expect(reads).toEqual([0, 1000, 2000]);
    expect(runs[0]?.steps.map((e) => [e.type, e.seq])).toEqual([
      ['tool_call', 2_401],
      ['tool_result', 2_402],
    ]);
  });
});
