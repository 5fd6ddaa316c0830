import * as fs from 'node:fs';
import { mkdir, rmdir, stat, unlink } from 'node:fs/promises';

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** proper-lockfile's file system, with the one call it makes that this one changes. */
export interface LockFs {
  readonly fs: typeof fs;
  /** Called once the lock is ours: from then on removing it is the plain release. */
  held(): void;
}

/**
 * The file system proper-lockfile works through, for one lock attempt. When it
 * finds a stale lock it stats it, then removes it: between the two another
 * writer may have broken the same stale lock and taken a fresh one, which
 * the late removal would then delete, letting two writers in. Here the break
 * happens under a `<lock>.break` directory and only after a second look finds
 * the lock still stale, so a fresh lock is never removed.
 */
export function lockFs(staleMs: number): LockFs {
  let isHeld = false;
  const guardedRmdir = (
    path: fs.PathLike,
    callback: (error: NodeJS.ErrnoException | null) => void,
  ) => {
    if (isHeld) {
      fs.rmdir(path, callback);
      return;
    }
    breakIfStale(String(path), staleMs).then(
      () => callback(null),
      (error: unknown) => callback(error as NodeJS.ErrnoException),
    );
  };
  return {
    fs: { ...fs, rmdir: guardedRmdir as typeof fs.rmdir },
    held: () => {
      isHeld = true;
    },
  };
}

/**
 * Removes `lock` if it is still stale, while holding `<lock>.break`. Returning
 * without removing is fine: proper-lockfile then tries once to take the lock
 * and reports it held, and the caller waits and tries again.
 */
async function breakIfStale(lock: string, staleMs: number): Promise<void> {
  const breaker = `${lock}.break`;
  try {
    await mkdir(breaker);
  } catch (error) {
    if (code(error) !== 'EEXIST') throw error;
    // Another writer is breaking it. A breaker this old was left by a crash
    // in the instant between its creation and removal.
    if (await olderThan(breaker, staleMs)) await removeDir(breaker);
    return;
  }
  try {
    if (await olderThan(lock, staleMs)) await removeDir(lock);
  } finally {
    await removeDir(breaker);
  }
}

async function olderThan(path: string, staleMs: number): Promise<boolean> {
  try {
    return (await stat(path)).mtimeMs < Date.now() - staleMs;
  } catch (error) {
    if (code(error) === 'ENOENT') return false;
    throw error;
  }
}

/** Removes a lock directory, or the plain file an earlier Cadre used as its lock. */
async function removeDir(path: string): Promise<void> {
  await rmdir(path).catch(async (error: unknown) => {
    if (code(error) === 'ENOTDIR') return removeFile(path);
    if (code(error) !== 'ENOENT') throw error;
  });
}

async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (code(error) !== 'ENOENT') throw error;
  });
}
