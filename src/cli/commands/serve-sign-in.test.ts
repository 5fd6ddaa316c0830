import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIO } from '../cli-io.js';
import { runCli } from '../program.js';

/*
 * `cadre serve` on this machine prints a sign-in link (a one-time code in the
 * URL fragment, traded once for a token revoked when the server stops) and
 * warns at start when no agent can reach a model. No model is called.
 */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-serve-sign-in-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function serve(env: NodeJS.ProcessEnv, args: string[] = [], readyOn = /Sign in: /) {
  let out = '';
  let err = '';
  let interrupt: (() => void) | undefined;
  let ready = (): void => undefined;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const io: CliIO = {
    stdout: (t) => {
      out += t;
      if (readyOn.test(out + err)) ready();
    },
    stderr: (t) => {
      err += t;
      if (readyOn.test(out + err)) ready();
    },
    env: { HOME: dir, CADRE_LOG_LEVEL: 'silent', ...env },
    cwd: dir,
    isTTY: false,
    onInterrupt: (handler) => {
      interrupt = handler;
      return () => (interrupt = undefined);
    },
  };
  const exit = runCli(['serve', '--port', '0', '--log-format', 'pretty', ...args], io);
  await Promise.race([exit, started]);
  return {
    stderr: () => err,
    stdout: () => out,
    stop: () => {
      interrupt?.();
      return exit;
    },
  };
}

const token = (stderr: string) => /Sign in: (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/.exec(stderr);

describe('cadre serve sign-in link and model warning', () => {
  it('prints a link whose one-time code buys a session once, kept out of every log line; the session ends with the server', async () => {
    const server = await serve({ GEMINI_API_KEY: 'test-key', CADRE_LOG_LEVEL: 'info' });
    const link = token(server.stderr());
    expect(link, server.stderr()).not.toBeNull();
    const [, url, code] = link as RegExpExecArray;
    const exchange = () =>
      fetch(`${url}/api/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
    const threads = (bearer: string, base = url) =>
      fetch(`${base}/api/threads`, { headers: { authorization: `Bearer ${bearer}` } });
    // The code itself is no token.
    expect((await threads(code as string)).status).toBe(401);
    const first = await exchange();
    expect(first.status).toBe(200);
    const { token: session } = (await first.json()) as { token: string };
    expect((await threads(session)).status).toBe(200);
    // The link a second time: refused, saying why.
    const again = await exchange();
    expect(again.status).toBe(401);
    expect(await again.text()).toMatch(/already used/);
    expect(server.stderr()).not.toMatch(/no agent can reach its model/);
    expect(await server.stop()).toBe(0);
    // Request lines were logged; the code only in the link line, the session nowhere.
    const output = server.stderr() + server.stdout();
    expect(output).toMatch(/\/api\/sign-in/);
    expect(output.split('\n').filter((line) => line.includes(code as string))).toHaveLength(1);
    expect(output).not.toContain(session);

    // Served again on the same database: the old session is refused.
    const nextServer = await serve({ GEMINI_API_KEY: 'test-key' });
    const [, nextUrl] = token(nextServer.stderr()) as RegExpExecArray;
    expect((await threads(session, nextUrl)).status).toBe(401);
    await nextServer.stop();
  });

  it('prints no link into JSON logs, where a token would be kept', async () => {
    const server = await serve(
      { GEMINI_API_KEY: 'test-key', CADRE_LOG_LEVEL: 'info' },
      ['--log-format', 'json'],
      // The last line before it waits for Ctrl-C: the stop below is heard.
      /listening on.*\n.*\n/,
    );
    await server.stop();
    expect(server.stdout()).toMatch(/listening on/);
    expect(server.stderr() + server.stdout()).not.toContain('#token=');
  });

  it('warns at start when no agent has a key for its model', async () => {
    const server = await serve({});
    expect(server.stderr()).toMatch(
      /warning no agent can reach its model, so every run will fail until one can: .*GEMINI_API_KEY/,
    );
    await server.stop();
  });
});
