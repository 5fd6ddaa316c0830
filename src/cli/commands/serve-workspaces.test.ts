import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedPart } from '../../model/scripted-model.js';
import { createSandbox } from '../../tools/sandbox/sandbox.js';
import { sandboxSettingsFromEnv } from '../../tools/sandbox/sandbox-settings.js';
import { runCliCaptured } from '../../testing/run-cli-captured.js';
import type { CliIO } from '../cli-io.js';
import { runCli } from '../program.js';

// Two users on one real `cadre serve` (in-process, real SQLite, real bubblewrap sandbox,
// scripted model): each attack tries to reach the other user's workspace or the server's own
// folder and shows it cannot. The server folder lies outside /tmp and every home folder, which
// the sandbox hides anyway, so only the whole-folder mask can be what hides it.
// CI installs bubblewrap and sets CADRE_REQUIRE_SANDBOX=1, so there the shell attacks never skip.
const bwrapHere =
  (
    await createSandbox(sandboxSettingsFromEnv({}), process.env).status(
      new AbortController().signal,
    )
  ).kind === 'bwrap';
if (process.env.CADRE_REQUIRE_SANDBOX === '1' && !bwrapHere)
  throw new Error('CADRE_REQUIRE_SANDBOX=1 but bubblewrap cannot start here');

const OPERATOR_SECRET = 'OPERATOR-ENV-SECRET-7431';
const ANN_SECRET = 'ANN-PRIVATE-NOTES-9920';
const LATE_SECRET = 'LATE-BACKUP-SECRET-5512';
const CONTROL = 'CONTROL-OUTSIDE-SERVER-3318';

let root: string;
let server: string;
let base: string;
let url: string;
const tokens = { ann: '', bob: '' };
let annWs: string;
let bobWs: string;
let stdout = '';
let stop: (() => void) | undefined;
let exited: Promise<number>;
let hostSocket: Server;
let controlSocket: Server;
let hostConnections = 0;

type Part = ScriptedPart;
const call = (name: string, args: Record<string, unknown>): Part => ({
  functionCall: { name, args },
});
const shell = (command: string): Part => call('shell', { command });
const event = call('calendar_event_create', {
  title: 'Standup',
  start: '2026-12-01T09:00:00Z',
  end: '2026-12-01T09:15:00Z',
});

/**
 * The scripted model's turns: the first answers with the calls listed under the marker the
 * prompt carries, the second ends the run. Read anew by each thread, so later tests can name
 * folders learnt from earlier runs.
 */
async function script(byMarker: Record<string, Part[]>): Promise<void> {
  const branches = Object.entries(byMarker).map(([marker, parts]) => ({
    when: { promptIncludes: marker },
    parts,
  }));
  await writeFile(
    join(server, 'turns.json'),
    JSON.stringify([{ parts: [{ text: 'no script' }], branches }, { parts: [{ text: 'done' }] }]),
  );
}

interface RunBody {
  runId: string;
  status: string;
  approvals?: { approvalId: string }[];
}

async function post(user: keyof typeof tokens, route: string, body: unknown): Promise<RunBody> {
  const response = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[user]}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as RunBody;
}

/** What the run's tools answered (errors included), from its final result's traces. */
function toolOutputs(events: string): string {
  const lines = events.split('\n').filter((line) => line.trim() !== '');
  const final = lines
    .map((line) => JSON.parse(line) as { type: string; data: unknown })
    .find((entry) => entry.type === 'final_result');
  const traces =
    (final?.data as { result?: { traces?: { output?: unknown; error?: unknown }[] } } | undefined)
      ?.result?.traces ?? [];
  return traces.map((trace) => String(trace.output ?? trace.error ?? '')).join('\n');
}

/**
 * Runs the marker's calls for `user` (approving what waits); returns the run's events and what
 * its tools answered (a shell's stdout and stderr as printed).
 */
async function run(
  user: keyof typeof tokens,
  marker: string,
): Promise<{ events: string; output: string }> {
  let body = await post(user, '/api/agent/run', { prompt: `please ${marker}`, agent: 'worker' });
  while (body.status === 'awaiting_confirmation') {
    const [approval] = body.approvals ?? [];
    body = await post(user, '/api/agent/approvals/resolve', {
      approvalId: approval?.approvalId,
      decision: 'approve_once',
    });
  }
  expect(body.status).toBe('completed');
  const events = await (
    await fetch(`${url}/api/runs/${body.runId}/events`, {
      headers: { authorization: `Bearer ${tokens[user]}` },
    })
  ).text();
  return { events, output: toolOutputs(events) };
}

beforeAll(async () => {
  // /var/tmp: not hidden by the sandbox (unlike /tmp and home folders), so the mask is tested.
  const parent = process.platform === 'linux' && existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
  root = await realpath(await mkdtemp(join(parent, 'cadre-serve-ws-')));
  server = join(root, 'server');
  const home = join(root, 'home');
  await mkdir(join(server, 'agents'), { recursive: true });
  await mkdir(home);
  await writeFile(join(root, 'control.txt'), `${CONTROL}\n`);
  await writeFile(join(server, '.env'), `OPENAI_API_KEY=${OPERATOR_SECRET}\n`);
  await writeFile(
    join(server, 'agents', 'worker.yaml'),
    'name: worker\ndescription: Works with files\ntoolConfig:\n' +
      '  tools: [read_file, write_file, ls, shell, calendar_event_create]\n',
  );
  // The shell and the calendar run without asking, so the attacks stay short; writes ask.
  await writeFile(
    join(server, 'policy.yaml'),
    'rules:\n' +
      '  - tool: shell\n    decision: allow\n    reason: sandboxed\n' +
      '  - tool: calendar_event_create\n    decision: allow\n    reason: test calendar\n',
  );
  await script({
    ANN_WRITES: [call('write_file', { path: 'ann-private-notes.txt', content: ANN_SECRET })],
    BOB_HELLO: [call('ls', { path: '.' })],
  });
  for (const user of ['ann', 'bob'] as const) {
    const created = await runCliCaptured(
      ['token', 'create', '--user', user, ...(user === 'ann' ? ['--create-db'] : [])],
      { cwd: server, env: { HOME: home } },
    );
    tokens[user] = created.stdout.trim();
  }
  let stderr = '';
  let announced = (): void => undefined;
  const ready = new Promise<void>((resolve) => (announced = resolve));
  const io: CliIO = {
    stdout: (t) => {
      stdout += t;
      if (/Workspace /.test(stdout)) announced();
    },
    stderr: (t) => (stderr += t),
    env: {
      HOME: home,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      CADRE_LOG_LEVEL: 'silent',
      CADRE_MODEL: `scripted:${join(server, 'turns.json')}`,
      // The test's node may live in a home folder (a version manager): shown read-only.
      CADRE_SANDBOX_READ: dirname(process.execPath),
    },
    cwd: server,
    isTTY: false,
    onInterrupt: (handler) => {
      stop = handler;
      return () => (stop = undefined);
    },
  };
  // The operator trusts the project's policy for this start (the test's own files).
  exited = runCli(['serve', '--port', '0', '--policy', 'policy.yaml', '--trust-project'], io);
  await Promise.race([exited, ready]);
  url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? '';
  if (!url) throw new Error(`serve did not start: ${stdout}${stderr}`);
  base = join(server, '.cadre', 'workspaces');
  await run('ann', 'ANN_WRITES');
  const [annDir] = await readdir(base);
  annWs = join(base, annDir ?? 'missing');
  await run('bob', 'BOB_HELLO');
  const bobDir = (await readdir(base)).find((name) => name !== annDir);
  bobWs = join(base, bobDir ?? 'missing');
  hostSocket = createServer((socket) => {
    hostConnections += 1;
    socket.end('HOST-SERVICE\n');
  });
  await new Promise<void>((listening) => hostSocket.listen(join(server, 'host.sock'), listening));
  controlSocket = createServer((socket) => socket.end('CONTROL-SOCKET\n'));
  await new Promise<void>((listening) =>
    controlSocket.listen(join(root, 'control.sock'), listening),
  );
}, 60_000);

afterAll(async () => {
  stop?.();
  await exited;
  await new Promise((closed) => hostSocket.close(closed));
  await new Promise((closed) => controlSocket.close(closed));
  await rm(root, { recursive: true, force: true });
});

describe('cadre serve: a workspace per user (two users, scripted model, real sandbox)', () => {
  it('says what each user gets, and makes each workspace 0700 on first use, apart', async () => {
    expect(stdout).toContain(`Workspace per user under ${base}`);
    expect(stdout).toContain(`never ${server})`);
    expect((await readdir(base)).sort()).toHaveLength(2);
    for (const ws of [annWs, bobWs]) expect((await lstat(ws)).mode & 0o777).toBe(0o700);
    expect(await readFile(join(annWs, 'ann-private-notes.txt'), 'utf8')).toBe(ANN_SECRET);
    expect(existsSync(join(bobWs, 'ann-private-notes.txt'))).toBe(false);
    expect(existsSync(join(server, 'ann-private-notes.txt'))).toBe(false);
  });

  it("refuses Ann's file to Bob's read_file: relative, absolute, ../ and through symlinks", async () => {
    const annDir = annWs.slice(base.length + 1);
    // What an agent could plant (with the shell, or by an earlier write): links into Ann's folder.
    await symlink(`../${annDir}`, join(bobWs, 'to-ann'));
    await symlink(join(annWs, 'ann-private-notes.txt'), join(bobWs, 'notes-link.txt'));
    await script({
      BOB_READS: [
        call('read_file', { path: 'ann-private-notes.txt' }),
        call('read_file', { path: join(annWs, 'ann-private-notes.txt') }),
        call('read_file', { path: `../${annDir}/ann-private-notes.txt` }),
        call('read_file', { path: 'to-ann/ann-private-notes.txt' }),
        call('read_file', { path: 'notes-link.txt' }),
        call('ls', { path: '..' }),
      ],
    });
    const { events, output } = await run('bob', 'BOB_READS');
    expect(events).not.toContain(ANN_SECRET);
    expect(output).toMatch(/No such file or directory: ann-private-notes\.txt/);
    expect(output.match(/outside the workspace/g)).toHaveLength(5);
  });

  it.runIf(bwrapHere)(
    "hides Ann's workspace from Bob's shell: cat by every path, ls of the workspaces",
    async () => {
      const annDir = annWs.slice(base.length + 1);
      await script({
        BOB_CATS: [
          shell(
            `cat ann-private-notes.txt; cat ${annWs}/ann-private-notes.txt; ` +
              `cat ../${annDir}/ann-private-notes.txt; ln -s ../${annDir} planted; ` +
              `cat planted/ann-private-notes.txt; echo ==LS; ls -a ..; echo ==END; ` +
              `echo own > mine.txt; cat mine.txt`,
          ),
        ],
      });
      const { events, output } = await run('bob', 'BOB_CATS');
      expect(events).not.toContain(ANN_SECRET);
      const listed = /==LS(.*?)==END/s.exec(output)?.[1] ?? '';
      expect(listed).toContain(bobWs.slice(base.length + 1));
      expect(listed).not.toContain(annDir);
      // The workspace itself is writable and readable inside the mask.
      expect(await readFile(join(bobWs, 'mine.txt'), 'utf8')).toBe('own\n');
    },
  );

  it.runIf(bwrapHere)(
    "Ann's FIFO at her calendar path fails her call fast and leaves Bob's approved event alone",
    async () => {
      await script({ ANN_FIFO: [shell('mkfifo calendar.ics && echo made')], EVENT: [event] });
      await run('ann', 'ANN_FIFO');
      expect((await lstat(join(annWs, 'calendar.ics'))).isFIFO()).toBe(true);
      const started = Date.now();
      const bob = await run('bob', 'EVENT');
      expect(bob.output).toContain('"created":true');
      expect(await readFile(join(bobWs, 'calendar.ics'), 'utf8')).toContain('SUMMARY:Standup');
      const ann = await run('ann', 'EVENT');
      expect(ann.output).toMatch(/calendar\.ics is a named pipe \(FIFO\), not a regular file/);
      // Both answered at once: no open of the FIFO blocked, no lock was waited on.
      expect(Date.now() - started).toBeLessThan(5000);
    },
  );

  it.runIf(bwrapHere)(
    "keeps the server's folder out of the shell: .env by ../ or absolute path, a file put in .cadre/ after start-up",
    async () => {
      await writeFile(join(server, '.cadre', 'late-backup.db'), LATE_SECRET);
      await script({
        BOB_ESCAPES: [
          shell(
            `cat ../../.env; cat ../../../.env; cat ${server}/.env; ` +
              `cat ${server}/.cadre/late-backup.db; cat ../../late-backup.db; ` +
              `echo ==LS; ls -a ${server} ${server}/.cadre; echo ==END; cat ${root}/control.txt`,
          ),
        ],
      });
      const { events, output } = await run('bob', 'BOB_ESCAPES');
      // The folder beside the server's is visible: only the mask hides the server's own.
      expect(output).toContain(CONTROL);
      expect(events).not.toContain(OPERATOR_SECRET);
      expect(events).not.toContain(LATE_SECRET);
      const listed = /==LS(.*?)==END/s.exec(output)?.[1] ?? '';
      expect(listed).toContain('.cadre');
      expect(listed).not.toMatch(/\.env|late-backup|turns\.json|policy\.yaml|host\.sock/);
    },
  );

  it.runIf(bwrapHere)(
    "cannot connect to a unix socket a host service listens on in the server's folder",
    async () => {
      // Debian's python3, not this checkout's node: a checkout under /tmp is out of a sandbox's sight.
      const connect = (path: string) =>
        `/usr/bin/python3 -c "import errno,socket,sys` +
        `\ns=socket.socket(socket.AF_UNIX)` +
        `\ntry:\n s.connect(sys.argv[1]); print('GOT ' + s.recv(100).decode())` +
        `\nexcept OSError as e: print('FAILED ' + errno.errorcode.get(e.errno, str(e.errno)))" ${path}`;
      await script({
        BOB_SOCKET: [
          shell(`${connect(join(server, 'host.sock'))}; ${connect(join(root, 'control.sock'))}`),
        ],
      });
      const { output } = await run('bob', 'BOB_SOCKET');
      // Masked twice over: the server's folder is empty inside, and every listening socket
      // outside the workspace (the one beside the server's folder too) is covered by a file.
      expect(output).not.toContain('CONTROL-SOCKET');
      expect(output).not.toContain('HOST-SERVICE');
      expect(output).toMatch(/FAILED ENOENT/);
      expect(output).toMatch(/FAILED ECONNREFUSED/);
      expect(hostConnections).toBe(0);
    },
  );
});

// The calendar's own check, whether or not a shell could plant the FIFO.
describe('a FIFO planted by hand', () => {
  it("a FIFO in Ann's workspace still fails only her calendar call, at once", async () => {
    await rm(join(annWs, 'calendar.ics'), { force: true });
    execFileSync('mkfifo', [join(annWs, 'calendar.ics')]);
    await script({ EVENT: [event] });
    expect((await run('bob', 'EVENT')).output).toContain('"created":true');
    expect((await run('ann', 'EVENT')).output).toMatch(/named pipe/);
  });
});
