import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { throwIfAborted } from './abort.js';

/** Directory names search tools skip: dependencies and VCS internals drown real results. */
export const IGNORED_DIR_NAMES: readonly string[] = Object.freeze(['node_modules', '.git']);

/**
 * Yields the regular files under `root` (or `root` itself when it is a file),
 * depth-first in name order. Symbolic links are skipped, never followed: their
 * targets may lie outside the workspace or form cycles.
 */
export async function* walkFiles(
  root: string,
  signal: AbortSignal,
  /** Paths never entered or yielded (Cadre's own state). */
  skip: (absolute: string) => boolean = () => false,
): AsyncGenerator<string> {
  throwIfAborted(signal);
  if ((await stat(root)).isFile()) {
    yield root;
    return;
  }
  const pending: string[] = [root];
  while (pending.length > 0) {
    throwIfAborted(signal);
    const dir = pending.pop() as string;
    const entries = (await readEntries(dir, dir === root)).sort(byName);
    const subdirs: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (skip(full)) continue;
      if (entry.isDirectory()) {
        if (!IGNORED_DIR_NAMES.includes(entry.name)) subdirs.push(full);
      } else if (entry.isFile()) {
        yield full;
      }
    }
    // Reversed so the stack pops subdirectories in name order.
    pending.push(...subdirs.reverse());
  }
}

/** An unreadable subdirectory is skipped so one permission error does not sink a whole search. */
async function readEntries(dir: string, isRoot: boolean): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isRoot) throw error;
    return [];
  }
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
