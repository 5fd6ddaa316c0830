import { open, stat, unlink } from 'node:fs/promises';
import { ToolExecutionError } from '../../errors/index.js';
import { abortableSleep } from '../../model/abortable-sleep.js';
import { throwIfAborted } from '../builtin/abort.js';

export interface LockOptions {
  /** Give up after this long. */
  timeoutMs?: number;
  /** A lock older than this was left by a crashed writer and is broken. */
  staleMs?: number;
}

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/**
 * Runs `fn` while holding `<file>.lock` (created exclusively), so two writers
 * in any process cannot both read-modify-write the file and lose an event.
 */
export async function withFileLock<T>(
  file: string,
  signal: AbortSignal,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const lock = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const started = Date.now();
  for (;;) {
    throwIfAborted(signal);
    try {
      await (await open(lock, 'wx')).close();
      break;
    } catch (error) {
      if (errno(error) !== 'EEXIST') throw error;
    }
    if (await isStale(lock, staleMs)) {
      await unlink(lock).catch(() => undefined);
      continue;
    }
    if (Date.now() - started > timeoutMs) {
      throw new ToolExecutionError(
        'The calendar file is locked by another writer; try again later.',
      );
    }
    await abortableSleep(20 + Math.floor(Math.random() * 30), signal);
  }
  try {
    return await fn();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

async function isStale(lock: string, staleMs: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(lock)).mtimeMs > staleMs;
  } catch (error) {
    if (errno(error) === 'ENOENT') return false;
    throw error;
  }
}
