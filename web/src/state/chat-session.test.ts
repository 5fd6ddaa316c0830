import { mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../../src/model/scripted-model.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../../../src/model/types.js';
import {
  startRealTestServer,
  type RealTestServer,
} from '../../../src/server/http/testing/real-test-server.js';
import type { FetchLike } from '../api/authorized-fetch.js';
import { createApi } from '../api/api.js';
import {
  CONFLICT_TEXT,
  createChatSession,
  type ChatSession,
  type ChatSnapshot,
} from './chat-session.js';

const GREETING = ['Hello Ann, ', 'this answer ', 'came in pieces.'];
const THOUGHT = 'A greeting; no tool is needed.';

function lastUserText(request: ModelRequest): string {
  for (const message of [...request.messages].reverse())
    for (const part of message.parts)
      if (message.role === 'user' && part.kind === 'text') return part.text;
  return '';
}

/** Answers a tool result with "Done", writes a note when asked (approval first), stalls on "slow". */
function turn(request: ModelRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.parts.some((p) => p.kind === 'function_response'))
    return { parts: [{ text: 'Done.' }] };
  const prompt = lastUserText(request);
  if (/note/i.test(prompt))
    return {
      parts: [{ functionCall: { name: 'write_file', args: { path: 'note.txt', content: 'hi' } } }],
    };
  // Long enough that only a cancel ends it; the model's sleep aborts at once.
  if (/slow/i.test(prompt)) return { parts: [{ text: 'Too late.' }], delayMs: 120_000 };
  return { parts: [{ thought: THOUGHT }, ...GREETING.map((text) => ({ text }))] };
}

/**
 * The scripted model, but a test may hold each text piece after the first
 * until the page shows the ones before: the server would otherwise merge
 * pieces that come together into one delta line.
 */
class SteppedModel implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'scripted';
  /** Resolves when text piece `index` may go. */
  beforeText: ((index: number) => Promise<unknown>) | undefined;
  private readonly inner = new ScriptedModel(turn);

  async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    let texts = 0;
    for await (const chunk of this.inner.generate(request, signal)) {
      if (chunk.type === 'text' && this.beforeText) await this.beforeText(texts++);
      signal.throwIfAborted();
      yield chunk;
    }
  }
}

const model = new SteppedModel();
let real: RealTestServer;
let dir = '';
let token = '';
let userId = '';

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-chat-session-')));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents', 'writer.yaml'),
    'name: writer\ndescription: Writes notes.\ntoolConfig:\n  tools: [write_file]\npromptConfig:\n  systemPrompt: You write notes.\n',
  );
  real = await startRealTestServer(dir, { modelClient: model });
  const user = await real.store.auth.ensureUser('ann');
  userId = user.id;
  token = (await real.store.auth.createToken(user.id)).token;
});
afterAll(() => real.close());

interface Harness {
  session: ChatSession;
  /** Every snapshot the session published, in order. */
  seen: ChatSnapshot[];
  /** Every request the session made, with its signal. */
  requests: { path: string; signal?: AbortSignal }[];
  created: string[];
}

interface HarnessOptions {
  agent?: string;
  signal?: AbortSignal;
  token?: string;
  storage?: Map<string, string>;
}

/** A session on the real server, which follows a thread it created as the page's navigation does. */
function harness(options: HarnessOptions = {}): Harness {
  const requests: Harness['requests'] = [];
  const local: FetchLike = (path, init = {}) => {
    requests.push({ path, ...(init.signal ? { signal: init.signal } : {}) });
    return fetch(new URL(path, real.server.url), init);
  };
  const api = createApi(options.token ?? token, () => undefined, { fetch: local });
  const session = createChatSession({
    api,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.storage ? { storage: storageOf(options.storage) } : {}),
  });
  const seen: ChatSnapshot[] = [];
  const created: string[] = [];
  session.subscribe(() => seen.push(session.getSnapshot()));
  session.configure({
    ...(options.agent ? { agent: options.agent } : {}),
    onThreadCreated: (id) => {
      created.push(id);
      void session.open(id);
    },
  });
  return { session, seen, requests, created };
}

const storageOf = (items: Map<string, string>) => ({
  getItem: (key: string) => items.get(key) ?? null,
  setItem: (key: string, value: string) => void items.set(key, value),
  removeItem: (key: string) => void items.delete(key),
});

/** Resolves with the first snapshot (now or later) that satisfies `test`. */
function until(session: ChatSession, test: (s: ChatSnapshot) => boolean): Promise<ChatSnapshot> {
  return new Promise((resolve) => {
    if (test(session.getSnapshot())) return resolve(session.getSnapshot());
    const stop = session.subscribe(() => {
      const now = session.getSnapshot();
      if (!test(now)) return;
      stop();
      resolve(now);
    });
  });
}

const runStatus = async (runId: string) => (await real.service.getRun(userId, runId))?.run.status;

describe('chat session against the real server on 127.0.0.1 (scripted model)', () => {
  it('streams a new thread: the prompt at once, deltas merged in order, then the stored messages', async () => {
    const { session, seen, created } = harness();
    const shown = GREETING.map((_, i) => GREETING.slice(0, i + 1).join(''));
    model.beforeText = (i) =>
      i === 0 ? Promise.resolve() : until(session, (s) => s.live?.trace.text === shown[i - 1]);
    let accepted = 0;
    await session.send('Say hello', () => accepted++).finally(() => (model.beforeText = undefined));

    expect(accepted).toBe(1);
    expect(created).toHaveLength(1);
    // On its way: the composer is busy, then the prompt is drawn before the server echoes it.
    expect(seen[0]).toMatchObject({ sending: true, busy: false });
    expect(seen.find((s) => s.live)?.live).toMatchObject({ prompt: 'Say hello', done: false });
    // Each delta grows the one live text, in order, never out of it.
    const texts = [...new Set(seen.flatMap((s) => (s.live ? [s.live.trace.text] : [])))];
    expect(texts).toEqual(['', ...shown]);
    expect(seen.some((s) => s.busy && s.live?.trace.thoughts === THOUGHT)).toBe(true);

    const now = session.getSnapshot();
    expect(now.thread?.thread.id).toBe(created[0]);
    expect(now.thread?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Say hello'],
      ['assistant', GREETING.join('')],
    ]);
    // The live copy gave way to the stored message; the thoughts, not stored, are kept.
    expect(now).toMatchObject({ busy: false, sending: false, missing: false });
    expect(now.live).toBeUndefined();
    const runId = now.thread?.messages[1]?.runId ?? '';
    expect(now.traces[runId]?.thoughts).toBe(THOUGHT);

    // A follow-up goes to the same thread and lands after the first exchange.
    await session.send('Say hello again');
    expect(created).toHaveLength(1);
    expect(session.getSnapshot().thread?.messages.map((m) => m.content)).toEqual([
      'Say hello',
      GREETING.join(''),
      'Say hello again',
      GREETING.join(''),
    ]);
    session.dispose();
  });

  it('an approval pauses the run with its card; approving resumes it to the end', async () => {
    const storage = new Map<string, string>();
    const { session, created } = harness({ agent: 'writer', storage });
    await session.send('Write me a note');

    const paused = session.getSnapshot();
    expect(paused.busy).toBe(false);
    expect(paused.pendingApprovals).toHaveLength(1);
    const approval = paused.pendingApprovals[0]!;
    expect(approval).toMatchObject({ tool: 'write_file', preview: 'Write 2 bytes to note.txt' });
    expect(paused.traces[approval.runId]?.steps).toMatchObject([
      { tool: 'write_file', state: 'awaiting_approval' },
    ]);
    expect(await runStatus(approval.runId)).toBe('awaiting_confirmation');
    // Another tab has the same card open.
    const other = harness();
    await other.session.open(created[0]);
    expect(other.session.getSnapshot().pendingApprovals).toMatchObject([approval]);

    storage.set(`cadre.feedback.${approval.approvalId}`, 'typed on the card');
    const deciding = session.decide(approval, 'approve_once');
    // The card is busy until the server stores the decision, then gone at once.
    expect(session.getSnapshot().deciding).toBe(approval.approvalId);
    await until(session, (s) => s.pendingApprovals.length === 0 && s.deciding === undefined);
    await deciding;

    const done = session.getSnapshot();
    expect(done).toMatchObject({ busy: false, pendingApprovals: [] });
    expect(done.notice).toBeUndefined();
    expect(done.thread?.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Done.' });
    expect(done.traces[approval.runId]?.steps).toMatchObject([
      { tool: 'write_file', state: 'done' },
    ]);
    expect(await readFile(join(dir, 'note.txt'), 'utf8')).toBe('hi');
    expect(await runStatus(approval.runId)).toBe('completed');
    // Stored, so the feedback typed on the card is not kept any more.
    expect(storage.size).toBe(0);

    // The other tab's decision comes second: it is told so, and its card goes.
    await other.session.decide(approval, 'reject', 'no');
    expect(other.session.getSnapshot()).toMatchObject({
      notice: { kind: 'info', text: CONFLICT_TEXT },
      pendingApprovals: [],
      busy: false,
    });
    expect(other.session.getSnapshot().decisionError).toBeUndefined();
    session.dispose();
    other.session.dispose();
  });

  it('cancel stops the run under way; a second session that opened the thread follows it to the end', async () => {
    const { session, created } = harness();
    const sending = session.send('Be slow');
    const running = await until(session, (s) => s.busy && s.live?.trace.runId !== undefined);
    const runId = running.live?.trace.runId ?? '';

    // Opened elsewhere while the run goes on: the other session re-attaches to it.
    const other = harness();
    await other.session.open(created[0]);
    await until(other.session, (s) => s.live?.reattached === true && s.busy);

    await session.cancel();
    await sending;
    expect(await runStatus(runId)).toBe('cancelled');
    expect(session.getSnapshot().busy).toBe(false);
    await until(other.session, (s) => !s.busy && s.thread?.messages.length === 2);
    // Both show the run as it settled, and neither the text the stalled turn would have said.
    for (const s of [session, other.session])
      expect(s.getSnapshot().thread?.messages.map((m) => m.content)).toEqual([
        'Be slow',
        'Agent execution was cancelled.',
      ]);
    session.dispose();
    other.session.dispose();
  });

  it('stop aborts its streams but the session goes on: a reload follows the run again', async () => {
    const { session, requests } = harness();
    const sending = session.send('Slow, then stopped');
    const running = await until(session, (s) => s.live?.trace.runId !== undefined);
    const runId = running.live?.trace.runId ?? '';
    session.stop();
    await sending;
    expect(requests.find((r) => r.path === '/api/agent/run/stream')?.signal?.aborted).toBe(true);

    await session.reload();
    const followed = await until(session, (s) => s.live?.reattached === true);
    expect(followed).toMatchObject({ busy: true, live: { trace: { runId } } });
    expect(requests.at(-1)?.path).toBe(`/api/runs/${runId}/stream?after=0`);
    await session.cancel();
    await until(session, (s) => !s.busy && s.thread?.messages.length === 2);
    expect(await runStatus(runId)).toBe('cancelled');
    session.dispose();
  });

  it('an HTTP error is the session’s error state: a refused message is kept to send again', async () => {
    const { session } = harness({ agent: 'nobody' });
    let accepted = false;
    await session.send('Hello', () => (accepted = true));
    const now = session.getSnapshot();
    expect(accepted).toBe(false);
    expect(now).toMatchObject({ busy: false, sending: false });
    expect(now.live).toBeUndefined();
    expect(now.notice).toMatchObject({ kind: 'error', retry: 'send' });
    expect(now.notice?.text).toContain('Your message is kept.');
    session.dismissNotice();
    expect(session.getSnapshot().notice).toBeUndefined();
  });

  it('a refused token and a missing thread surface as the error state and as missing', async () => {
    const stranger = harness({ token: 'not-a-token' });
    await stranger.session.open('some-thread');
    expect(stranger.session.getSnapshot().notice).toMatchObject({ kind: 'error' });
    expect(stranger.session.getSnapshot().thread).toBeUndefined();

    const { session } = harness();
    await session.open('no-such-thread');
    expect(session.getSnapshot()).toMatchObject({ missing: true });
  });

  it('dispose aborts the stream under way, publishes nothing after and fetches no more', async () => {
    const { session, seen, requests } = harness();
    const sending = session.send('Be slow, please');
    const running = await until(session, (s) => s.live?.trace.runId !== undefined);
    const published = seen.length;
    const made = requests.length;
    session.dispose();
    await sending;
    const stream = requests.find((r) => r.path === '/api/agent/run/stream');
    expect(stream?.signal?.aborted).toBe(true);
    expect(seen).toHaveLength(published);
    await session.send('Anyone there?');
    await session.reload();
    await session.open('another-thread');
    expect(seen).toHaveLength(published);
    expect(requests).toHaveLength(made);
    // The run itself goes on: the page only stopped listening.
    const runId = running.live?.trace.runId ?? '';
    expect(['planning', 'running']).toContain(await runStatus(runId));
    await real.service.cancelRun(userId, runId);
  });

  it('aborting the signal it was given stops the session as dispose does', async () => {
    const controller = new AbortController();
    const { session, seen, requests } = harness({ signal: controller.signal });
    const sending = session.send('Slow again');
    const running = await until(session, (s) => s.live?.trace.runId !== undefined);
    const published = seen.length;
    controller.abort();
    await sending;
    const stream = requests.find((r) => r.path === '/api/agent/run/stream');
    expect(stream?.signal?.aborted).toBe(true);
    expect(seen).toHaveLength(published);
    await real.service.cancelRun(userId, running.live?.trace.runId ?? '');
  });
});
