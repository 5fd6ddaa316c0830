import * as fs from 'node:fs';
import { lstat, mkdir, rmdir, unlink } from 'node:fs/promises';

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
 * happens under a `<lock>.break-<mtime>` directory and only after a second
 * look finds the very lock seen stale, so a fresh lock is never removed.
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
 * Removes `lock` if it is still the same stale lock, while holding a breaker
 * named after that lock's mtime. Returning without removing is fine:
 * proper-lockfile then tries once to take the lock and reports it held, and
 * the caller waits and tries again.
 */
async function breakIfStale(lock: string, staleMs: number): Promise<void> {
  const seen = await mtimeOf(lock);
  if (seen === undefined || seen >= Date.now() - staleMs) return;
  // One breaker per lock generation: a breaker left by a crash, or cleared by a
  // late writer, can never stand for a lock taken after it.
  const breaker = `${lock}.break-${seen}`;
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
    // A lock taken since the first look has another mtime and is left alone.
    if ((await mtimeOf(lock)) === seen) await removeDir(lock);
  } finally {
    await removeDir(breaker);
  }
}

async function mtimeOf(path: string): Promise<number | undefined> {
  try {
    return (await lstat(path)).mtimeMs;
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

async function olderThan(path: string, staleMs: number): Promise<boolean> {
  const mtime = await mtimeOf(path);
  return mtime !== undefined && mtime < Date.now() - staleMs;
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
