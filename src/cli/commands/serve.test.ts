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
  stderr: () => string;
  stop: () => Promise<number>;
}

/** `cadre serve` in-process on a free port; `stop` is the first Ctrl-C. */
async function serve(args: string[], env: NodeJS.ProcessEnv, isTTY = false): Promise<Served> {
  let out = '';
  let err = '';
  let interrupt: (() => void) | undefined;
  // Resolved by the output itself once serve says it listens: no polling of `out`.
  let listening = (): void => undefined;
  const started = new Promise<void>((resolve) => (listening = resolve));
  const io: CliIO = {
    stdout: (t) => {
      out += t;
      if (/listening on/.test(out)) listening();
    },
    stderr: (t) => (err += t),
    env: { HOME: dir, CADRE_LOG_LEVEL: 'silent', ...env },
    cwd: dir,
    isTTY,
    onInterrupt: (handler) => {
      interrupt = handler;
      return () => (interrupt = undefined);
    },
  };
  const exit = runCli(['serve', '--port', '0', ...args], io);
  // Or serve ended (it could not start): the check below says so.
  await Promise.race([exit, started]);
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  if (!url) throw new Error(`serve did not start: ${out}`);
  return {
    url,
    stdout: () => out,
    stderr: () => err,
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
      await runCliCaptured(['token', 'create', '--user', 'ann', '--db', db, '--create-db'], {
        cwd: dir,
      })
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

describe('cadre serve logs', () => {
  const db = () => ['--db', join(dir, 'cadre.db')];
  const healthz = async (server: Served) =>
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

  it('writes JSON lines to stderr when not on a terminal; stdout keeps the ready line', async () => {
    const server = await serve(db(), { CADRE_LOG_LEVEL: 'info' });
    await healthz(server);
    expect(await server.stop()).toBe(0);
    const records = server
      .stderr()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toContainEqual(
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ method: 'GET', url: '/healthz' }),
        res: { statusCode: 200 },
      }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({ msg: expect.stringMatching(/^Stopping/) }),
    );
    expect(server.stdout()).toMatch(
      /^Cadre listening on http:\/\/127\.0\.0\.1:\d+\nWorkspace per user under \S+ \(made on first use; tools see only their own, never \S+\); (shell commands run in a bubblewrap sandbox|no sandbox for shell commands)[^\n]*\n$/,
    );
  });

  it('writes one readable line per request on a terminal (no colour with NO_COLOR)', async () => {
    const server = await serve(db(), { CADRE_LOG_LEVEL: 'info', NO_COLOR: '1' }, true);
    await healthz(server);
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toMatch(/^\d\d:\d\d:\d\d GET \/healthz 200 \d+ ms$/m);
    expect(server.stderr()).not.toContain('incoming request');
    expect(server.stderr()).toMatch(/^\d\d:\d\d:\d\d Stopping: /m);
    expect(server.stdout()).toMatch(/^\d\d:\d\d:\d\d Cadre listening on /);
  });

  it('--log-format json overrides the terminal; --log-level wins over CADRE_LOG_LEVEL', async () => {
    const json = await serve([...db(), '--log-format', 'json'], { CADRE_LOG_LEVEL: 'info' }, true);
    await healthz(json);
    expect(await json.stop()).toBe(0);
    expect(json.stderr()).toContain('"msg":"request completed"');

    const quiet = await serve([...db(), '--log-level', 'silent'], { CADRE_LOG_LEVEL: 'info' });
    await healthz(quiet);
    expect(await quiet.stop()).toBe(0);
    expect(quiet.stderr()).toBe('');
  });

  it('refuses an unknown level or format as a setup error naming the allowed ones', async () => {
    const serveRun = await runCliCaptured(['serve', '--log-level', 'loud'], {
      cwd: dir,
      env: { HOME: dir },
    });
    expect(serveRun.code).toBe(2);
    expect(serveRun.stderr).toContain(
      "--log-level must be one of fatal, error, warn, info, debug, trace, silent; got 'loud'.",
    );
    const workerRun = await runCliCaptured(['worker'], {
      cwd: dir,
      env: { HOME: dir, CADRE_LOG_FORMAT: 'xml' },
    });
    expect(workerRun.code).toBe(2);
    expect(workerRun.stderr).toMatch(/CADRE_LOG_FORMAT must be one of json, pretty/);
  });
});
