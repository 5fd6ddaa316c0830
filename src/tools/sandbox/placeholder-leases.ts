import { lstat, rmdir, unlink } from 'node:fs/promises';
import type { EntryKind } from './host-loaded-paths.js';

/**
 * The placeholders bubblewrap leaves in a workspace as mount points (an empty
 * `tools/`, an empty `.mcp.json`), counted while commands use them. The last
 * command to end removes them, so the project is left as it was. While any
 * command of this process still mounts one, a new command treats it as
 * missing (its own placeholder), never as the project's file.
 */
export interface PlaceholderLeases {
  /** Whether a command of this process holds a placeholder at this path now. */
  held(path: string): boolean;
  /** Counts the placeholders a command is about to mount; the function gives them back. */
  take(placeholders: ReadonlyArray<{ path: string; kind: EntryKind }>): () => Promise<void>;
}

export function createPlaceholderLeases(): PlaceholderLeases {
  const counts = new Map<string, number>();
  return {
    held: (path) => (counts.get(path) ?? 0) > 0,
    take(placeholders) {
      for (const { path } of placeholders) counts.set(path, (counts.get(path) ?? 0) + 1);
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        const last: Array<{ path: string; kind: EntryKind }> = [];
        for (const placeholder of placeholders) {
          const left = (counts.get(placeholder.path) ?? 1) - 1;
          if (left > 0) counts.set(placeholder.path, left);
          else {
            counts.delete(placeholder.path);
            last.push(placeholder);
          }
        }
        // Deepest first: `.git/info` before `.git`.
        last.sort((a, b) => b.path.length - a.path.length);
        for (const placeholder of last) await removeIfEmpty(placeholder.path, placeholder.kind);
      };
    },
  };
}

/** Only what is still an empty placeholder goes: never a file someone put there since. */
async function removeIfEmpty(path: string, kind: EntryKind): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return;
  if (kind === 'directory' && info.isDirectory()) await rmdir(path).catch(() => undefined);
  else if (kind === 'file' && info.isFile() && info.size === 0)
    await unlink(path).catch(() => undefined);
}
