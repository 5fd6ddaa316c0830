// Test-only helpers: watching processes a test started.
import { readFileSync } from 'node:fs';

/**
 * True while `pid` is a live process. A zombie counts as gone: it has
 * exited, and in a container nobody may be reaping orphans.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; comm may hold spaces, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/**
 * Polls `condition` until it holds or `timeoutMs` passes; returns whether it held.
 * Polling on real time, kept: a grandchild (or any process not this one's child)
 * ending, or a file it writes appearing, raises no event this process can wait on.
 */
export async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

/** Waits (bounded) until `pid` has exited. */
export const exited = (pid: number, timeoutMs = 5_000): Promise<boolean> =>
  waitFor(() => !isRunning(pid), timeoutMs);
