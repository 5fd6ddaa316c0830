import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, ToolExecutionError } from '../../errors/index.js';
import { runCommand, type RunCommandOptions } from './run-command.js';
import { isRunning, pidsIn, waitFor } from './testing/test-support.js';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cadre-shell-')));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function options(overrides: Partial<RunCommandOptions> = {}): RunCommandOptions {
  return {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 10_000,
    maxOutputChars: 10_000,
    signal: new AbortController().signal,
    killGraceMs: 200,
    ...overrides,
  };
}

describe('runCommand', () => {
  it('reports the exit code, stdout and stderr', async () => {
    const result = await runCommand('echo out; echo err >&2; exit 3', options());
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      stdout: 'out\n',
      stderr: 'err\n',
      timedOut: false,
      cancelled: false,
      truncated: false,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect((await runCommand('true', options())).exitCode).toBe(0);
  });

  it('reports the signal that ended the shell', async () => {
    const result = await runCommand('kill -9 $$', options());
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
  });

  it('runs in the given directory with only the given environment', async () => {
    process.env.CADRE_TEST_SECRET = 'leaked';
    try {
      const result = await runCommand('pwd; echo "[$CADRE_TEST_SECRET][$ONLY]"', {
        ...options(),
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ONLY: 'given' },
      });
      expect(result.stdout).toBe(`${dir}\n[][given]\n`);
    } finally {
      delete process.env.CADRE_TEST_SECRET;
    }
  });

  it('gives the command no stdin', async () => {
    const result = await runCommand('cat; echo "done $?"', options());
    expect(result.stdout).toBe('done 0\n');
  });

  it('stops a command at its timeout, with every process it forked', async () => {
    const result = await runCommand(
      'sleep 100 & echo $!; sleep 100 & echo $!; wait',
      options({ timeoutMs: 300 }),
    );
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' });
    const pids = pidsIn(result.stdout);
    expect(pids).toHaveLength(2);
    expect(await waitFor(() => pids.every((pid) => !isRunning(pid)))).toBe(true);
  });

  it('kills what ignores SIGTERM once the grace is over', async () => {
    const result = await runCommand(
      "trap '' TERM; sleep 100 & echo $!; wait",
      options({ timeoutMs: 200, killGraceMs: 100 }),
    );
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    const [pid] = pidsIn(result.stdout);
    expect(await waitFor(() => !isRunning(pid ?? 0))).toBe(true);
  });

  it('stops background processes still running when the shell exits', async () => {
    const result = await runCommand('sleep 100 & echo $!', options());
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.durationMs).toBeLessThan(5_000);
    const [pid] = pidsIn(result.stdout);
    expect(await waitFor(() => !isRunning(pid ?? 0))).toBe(true);
  });

  // setsid (util-linux) puts the process in a session of its own, out of reach of the group kill.
  it.skipIf(!existsSync('/usr/bin/setsid'))(
    'does not wait forever on a pipe held by a process that left the group',
    async () => {
      const result = await runCommand(
        "setsid -f sh -c 'echo $$; exec sleep 30'",
        options({ killGraceMs: 50 }),
      );
      const [pid] = pidsIn(result.stdout);
      try {
        expect(result.exitCode).toBe(0);
        expect(result.durationMs).toBeLessThan(5_000);
      } finally {
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      }
    },
  );

  it('caps huge output to its start and end without holding it all', async () => {
    const result = await runCommand(
      'echo START; yes | head -c 5000000; echo END',
      options({ maxOutputChars: 1_000 }),
    );
    expect(result.exitCode).toBe(0);
    expect(result.truncated).toBe(true);
    expect(result.stdout.startsWith('START\ny\ny\n')).toBe(true);
    expect(result.stdout.endsWith('y\ny\nEND\n')).toBe(true);
    expect(result.stdout).toContain('[… 4,999,010 characters cut …]');
    expect(result.stdout.length).toBeLessThan(1_100);
  });

  it('shares the output budget between stdout and stderr', async () => {
    const result = await runCommand(
      'yes | head -c 100000 >&2; echo hi',
      options({ maxOutputChars: 1_000 }),
    );
    expect(result.stdout).toBe('hi\n');
    expect(result.stderr).toContain('[… 99,003 characters cut …]');
  });

  it('kills the process group and throws when cancelled mid-run', async () => {
    const controller = new AbortController();
    const pidFile = path.join(dir, 'pids');
    const running = runCommand(`sleep 100 & echo $! > ${pidFile}; wait`, {
      ...options(),
      signal: controller.signal,
    });
    const readPid = (): number | undefined =>
      existsSync(pidFile) ? pidsIn(readFileSync(pidFile, 'utf8'))[0] : undefined;
    expect(await waitFor(() => readPid() !== undefined)).toBe(true);
    controller.abort();
    await expect(running).rejects.toThrow(CancelledError);
    const pid = readPid() ?? 0;
    expect(await waitFor(() => !isRunning(pid))).toBe(true);
  });

  it('starts nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = path.join(dir, 'ran');
    await expect(
      runCommand(`touch ${marker}`, { ...options(), signal: controller.signal }),
    ).rejects.toThrow(CancelledError);
    expect(existsSync(marker)).toBe(false);
  });

  it('reports a command that cannot start', async () => {
    await expect(runCommand('true', options({ cwd: path.join(dir, 'missing') }))).rejects.toThrow(
      ToolExecutionError,
    );
    await expect(runCommand('echo \0', options())).rejects.toThrow(ToolExecutionError);
  });
});
