import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../../testing/fake-gemini-server.js';
import type { FakeServer } from '../../testing/fake-turn.js';
import { runCliCaptured } from '../../testing/run-cli-captured.js';
import type { CliIO } from '../cli-io.js';
import { runCli } from '../program.js';

let dir: string;
let gemini: FakeServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-serve-'));
});
afterEach(async () => {
  await gemini?.close();
  gemini = undefined;
});

interface Served {
  url: string;
  stdout: () => string;
  stop: () => Promise<number>;
}

/** `cadre serve` in-process on a free port; `stop` is the first Ctrl-C. */
async function serve(args: string[], env: NodeJS.ProcessEnv): Promise<Served> {
  let out = '';
  let interrupt: (() => void) | undefined;
  const io: CliIO = {
    stdout: (t) => (out += t),
    stderr: () => undefined,
    env: { HOME: dir, CADRE_LOG_LEVEL: 'silent', ...env },
    cwd: dir,
    isTTY: false,
    onInterrupt: (handler) => {
      interrupt = handler;
      return () => (interrupt = undefined);
    },
  };
  const exit = runCli(['serve', '--port', '0', ...args], io);
  for (let i = 0; i < 200 && !/listening on/.test(out); i++)
    await Promise.race([exit, new Promise((r) => setTimeout(r, 25))]);
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  if (!url) throw new Error(`serve did not start: ${out}`);
  return {
    url,
    stdout: () => out,
    stop: () => {
      interrupt?.();
      return exit;
    },
  };
}

async function ndjson(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('cadre serve (real HTTP, SQLite, fake Gemini server)', () => {
  it('serves a token holder: run, stream, approval, resolve; stops cleanly on Ctrl-C', async () => {
    const db = join(dir, 'cadre.db');
    const token = (
      await runCliCaptured(['token', 'create', '--user', 'ann', '--db', db], { cwd: dir })
    ).stdout.trim();
    gemini = await startFakeGemini({
      turns: [
        { parts: [{ text: 'Hello Ann.' }] },
        {
          parts: [
            {
              functionCall: {
                name: 'calendar_event_create',
                args: {
                  title: 'Review',
                  start: '2026-03-02T10:00:00Z',
                  end: '2026-03-02T11:00:00Z',
                },
              },
            },
          ],
        },
        { parts: [{ text: 'Booked.' }] },
      ],
    });
    const server = await serve(['--db', db, '--model', 'gemini-2.5-flash'], {
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: gemini.baseUrl,
    });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/threads`)).status).toBe(401);

    const chat = await post('/api/agent/run', { prompt: 'Hi' });
    expect(await chat.json()).toMatchObject({
      ok: true,
      status: 'completed',
      summary: 'Hello Ann.',
    });

    const asked = await ndjson(await post('/api/agent/run/stream', { prompt: 'Book a review' }));
    expect(asked[0]).toMatchObject({ type: 'status', status: 'planning' });
    expect(asked.map((l) => l.type)).toContain('approval_required');
    const result = asked.at(-1)?.result as {
      status: string;
      threadId: string;
      approvals: Array<{ approvalId: string }>;
    };
    expect(result.status).toBe('awaiting_confirmation');
    expect(asked[0]?.threadId).toBe(result.threadId);
    const approvalId = result.approvals[0]?.approvalId;

    const pending = await fetch(`${server.url}/api/agent/approvals/pending`, { headers });
    expect(await pending.json()).toMatchObject({
      approvals: [{ approvalId, tool: 'calendar_event_create' }],
    });

    const resumed = await ndjson(
      await post('/api/agent/approvals/resolve/stream', { approvalId, decision: 'approve_once' }),
    );
    expect(resumed[0]).toMatchObject({ type: 'status', threadId: result.threadId });
    expect(resumed.at(-1)).toMatchObject({
      type: 'result',
      result: { status: 'completed', summary: 'Booked.' },
    });
    const again = await post('/api/agent/approvals/resolve', {
      approvalId,
      decision: 'approve_once',
    });
    expect(again.status).toBe(409);

    expect(await server.stop()).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('fails with a clear message on a bad port', async () => {
    const run = await runCliCaptured(['serve', '--port', 'http'], { cwd: dir, env: { HOME: dir } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--port must be a number/);
  });
});
