import { mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../testing/run-cli-captured.js';
import type { CliIO } from '../cli-io.js';
import { runCli } from '../program.js';

// An agent on `cadre serve` tries to read the server's own state (scripted model, real
// server, real SQLite): the audit key and the database must stay out of its reach.
let dir: string;
let url: string;
let token: string;
let stdout = '';
let stop: (() => void) | undefined;
let exited: Promise<number>;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-serve-state-')));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents', 'reader.yaml'),
    'name: reader\ndescription: Reads files\ntoolConfig:\n  tools: [read_file, grep, ls, glob]\n',
  );
  const call = (name: string, args: Record<string, unknown>) => ({ functionCall: { name, args } });
  await writeFile(
    join(dir, 'turns.json'),
    JSON.stringify([
      {
        parts: [
          call('read_file', { path: '.cadre/audit.key' }),
          call('read_file', { path: '../audit.key' }),
          call('read_file', { path: `${dir}/.cadre/audit.key` }),
          call('read_file', { path: '../cadre.db' }),
          call('grep', { pattern: '.', path: '..' }),
          call('ls', { path: '.' }),
          call('glob', { pattern: '**/*' }),
        ],
      },
      { parts: [{ text: 'done' }] },
    ]),
  );
  token = (
    await runCliCaptured(['token', 'create', '--user', 'ann', '--create-db'], {
      cwd: dir,
      env: { HOME: dir },
    })
  ).stdout.trim();
  // Resolved by the output itself once serve has said where agents work: no polling of `stdout`.
  let announced = (): void => undefined;
  const ready = new Promise<void>((resolve) => (announced = resolve));
  const io: CliIO = {
    stdout: (t) => {
      stdout += t;
      if (/Workspace /.test(stdout)) announced();
    },
    stderr: () => undefined,
    env: {
      HOME: dir,
      CADRE_LOG_LEVEL: 'silent',
      CADRE_MODEL: `scripted:${join(dir, 'turns.json')}`,
    },
    cwd: dir,
    isTTY: false,
    onInterrupt: (handler) => {
      stop = handler;
      return () => (stop = undefined);
    },
  };
  exited = runCli(['serve', '--port', '0'], io);
  // Or serve ended (it could not start): the check below says so.
  await Promise.race([exited, ready]);
  url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? '';
  if (!url) throw new Error(`serve did not start: ${stdout}`);
});

afterAll(async () => {
  stop?.();
  await exited;
});

describe("cadre serve keeps its own state out of every agent's reach", () => {
  it('says at start-up where agents work (not its own folder) and what confines the shell', () => {
    expect(stdout).toContain(`Workspace per user under ${join(dir, '.cadre', 'workspaces')}`);
    expect(stdout).toContain(`never ${dir})`);
    expect(stdout).toMatch(
      /shell commands run in a bubblewrap sandbox|no sandbox for shell commands/,
    );
  });

  it('refuses the audit key and the database whatever path the model tries', async () => {
    const response = await fetch(`${url}/api/agent/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'read everything', agent: 'reader' }),
    });
    const body = (await response.json()) as { runId: string; status: string };
    expect(body.status).toBe('completed');
    const events = await fetch(`${url}/api/runs/${body.runId}/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await events.text();
    const key = (await readFile(join(dir, '.cadre', 'audit.key'), 'utf8')).trim();
    expect(key.length).toBeGreaterThan(10);
    expect(text).not.toContain(key);
    expect(text).not.toContain('SQLite format');
    // Each attempt was answered, with a refusal the model can read.
    expect(text.match(/outside the workspace|Cadre's own state/g)?.length).toBeGreaterThanOrEqual(
      5,
    );
  });
});
