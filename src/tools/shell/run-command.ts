import {
  spawn,
  type ChildProcess,
  type ChildProcessByStdio,
  type StdioOptions,
} from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { CancelledError, ToolExecutionError } from '../../errors/index.js';
import { HeadTailBuffer, shareBudget } from './head-tail-buffer.js';
import { terminateGroup } from './process-group.js';
import type { Launcher } from '../sandbox/sandbox.js';

export interface RunCommandOptions {
  cwd: string;
  /** The child's whole environment; nothing is inherited. */
  env: Record<string, string>;
  timeoutMs: number;
  /** Most characters of stdout and stderr kept together (cut notes come on top). */
  maxOutputChars: number;
  signal: AbortSignal;
  /** Time between SIGTERM and SIGKILL when stopping the command. */
  killGraceMs?: number;
  /** Runs `/bin/sh -c` through a sandbox (bubblewrap); absent, the shell starts directly. */
  launcher?: Launcher;
}

export interface CommandResult {
  /** Null when a signal ended the shell. */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Always false in a returned result: a cancelled run throws `CancelledError`. */
  cancelled: boolean;
  durationMs: number;
  truncated: boolean;
}

const DEFAULT_KILL_GRACE_MS = 1_000;
// After the shell is gone, how much longer to wait for pipes held by processes that left its group.
const PIPE_DRAIN_MS = 250;
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs `command` with `/bin/sh -c` in a process group of its own, so that a
 * timeout, a cancel, or the shell finishing can end everything it started.
 * Background processes still running when the shell exits are stopped too:
 * a call runs one command, not a service. stdin is /dev/null.
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandResult> {
  if (options.signal.aborted) return Promise.reject(cancelled());
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const started = performance.now();
  return new Promise<CommandResult>((resolve, reject) => {
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      const launcher = options.launcher ?? { file: '/bin/sh', args: ['-c'] };
      // The seccomp program goes through a pipe on fd 3, read whole by bubblewrap before the command starts.
      const stdio: StdioOptions = launcher.seccomp
        ? ['ignore', 'pipe', 'pipe', 'pipe']
        : ['ignore', 'pipe', 'pipe'];
      child = spawn(launcher.file, [...launcher.args, command], {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio,
      }) as ChildProcessByStdio<null, Readable, Readable>;
      if (launcher.seccomp) sendProgram(child, launcher.seccomp);
    } catch (error) {
      // Arguments Node refuses outright, such as a NUL byte in the command.
      reject(notStarted(error));
      return;
    }
    // Each stream may end up with the whole budget when the other is quiet.
    const keep = Math.ceil(options.maxOutputChars / 2);
    const stdout = collect(child.stdout, keep);
    const stderr = collect(child.stderr, keep);

    let stopped: 'timeout' | 'cancel' | undefined;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const stop = (why: 'timeout' | 'cancel'): void => {
      if (stopped !== undefined || settled) return;
      stopped = why;
      if (child.pid !== undefined) terminateGroup(child.pid, graceMs);
    };
    const onAbort = (): void => stop('cancel');
    // setTimeout fires at once for delays past 2^31-1 ms.
    const timer = setTimeout(() => stop('timeout'), Math.min(options.timeoutMs, MAX_TIMER_MS));
    options.signal.addEventListener('abort', onAbort, { once: true });

    const cleanUp = (): void => {
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      options.signal.removeEventListener('abort', onAbort);
    };

    child.on('error', (error) => {
      // Only a failed start reaches here: signals are sent with process.kill, not child.kill.
      if (settled) return;
      cleanUp();
      reject(notStarted(error));
    });

    child.on('exit', () => {
      if (child.pid === undefined) return;
      // The shell's own time is up; what is left is bounded by the grace and the drain.
      clearTimeout(timer);
      terminateGroup(child.pid, graceMs);
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, graceMs + PIPE_DRAIN_MS);
    });

    child.on('close', (exitCode, signal) => {
      if (settled) return;
      cleanUp();
      if (stopped === 'cancel') {
        reject(cancelled());
        return;
      }
      const [outShare = 0, errShare = 0] = shareBudget(
        [stdout.length, stderr.length],
        options.maxOutputChars,
      );
      const out = stdout.render(outShare);
      const err = stderr.render(errShare);
      resolve({
        exitCode,
        signal,
        stdout: out.text,
        stderr: err.text,
        timedOut: stopped === 'timeout',
        cancelled: false,
        durationMs: Math.round(performance.now() - started),
        truncated: out.cut > 0 || err.cut > 0,
      });
    });
  });
}

function sendProgram(child: ChildProcess, program: Uint8Array): void {
  const pipe = child.stdio[3] as Writable | null | undefined;
  if (!pipe) throw new Error('no pipe for the seccomp program');
  // A launcher that failed to start closes the pipe early: that failure is reported by 'error'.
  pipe.on('error', () => undefined);
  pipe.end(program);
}

function collect(stream: Readable, keep: number): HeadTailBuffer {
  const buffer = new HeadTailBuffer(keep);
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => buffer.push(chunk));
  return buffer;
}

function notStarted(error: unknown): ToolExecutionError {
  const why = error instanceof Error ? error.message : String(error);
  return new ToolExecutionError(`The command could not be started: ${why}`, { cause: error });
}

function cancelled(): CancelledError {
  return new CancelledError('The command was cancelled.');
}
