/**
 * Sends `signal` to every process in group `pgid`; false when none is left.
 * Never throws: it also runs from timers, where a throw would end the process.
 */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Ends a process group: SIGTERM now, SIGKILL after `graceMs` for whatever is
 * left. While any member (even an unreaped zombie) remains, the group id
 * cannot be handed out again, so the late SIGKILL cannot reach a stranger.
 */
export function terminateGroup(pgid: number, graceMs: number): void {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs);
}
