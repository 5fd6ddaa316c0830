import { setTimeout as sleep } from 'node:timers/promises';
import { ToolExecutionError } from '../../errors/index.js';
import { throwIfAborted } from '../builtin/abort.js';
import { lockFs } from './lock-fs.js';

export interface LockOptions {
  /** Give up after this long. */
  timeoutMs?: number;
  /**
   * A lock not refreshed for this long was left by a crashed writer and is
   * broken (a live holder refreshes it every staleMs / 2; at least 2 s).
   */
  staleMs?: number;
}

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/**
 * Runs `fn` while holding the `<file>.lock` directory, so two writers in any
 * process cannot both read-modify-write the file and lose an event.
 */
export async function withFileLock<T>(
  file: string,
  signal: AbortSignal,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // proper-lockfile never takes less than 2 s; the stale-break guard uses the same figure.
  const staleMs = Math.max(options.staleMs ?? 30_000, 2000);
  const started = Date.now();
  // Loaded on first use: on import it hooks process exit and signals to remove held locks.
  const { lock } = await import('proper-lockfile');
  let release: () => Promise<void>;
  for (;;) {
    throwIfAborted(signal);
    const guarded = lockFs(staleMs);
    try {
      release = await lock(file, {
        stale: staleMs,
        fs: guarded.fs,
        // The calendar file may not exist yet: lock its path as given.
        realpath: false,
        // The default throws from a timer (and ends the process); losing the lock
        // means the event loop stalled past staleMs, which the write survives.
        onCompromised: () => undefined,
      });
      guarded.held();
      break;
    } catch (error) {
      if (code(error) !== 'ELOCKED') throw error;
    }
    if (Date.now() - started > timeoutMs) {
      throw new ToolExecutionError(
        'The calendar file is locked by another writer; try again later.',
      );
    }
    // Jittered, so writers that collided do not retry in step.
    await sleep(20 + Math.floor(Math.random() * 30), undefined, { signal }).catch(() =>
      throwIfAborted(signal),
    );
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
