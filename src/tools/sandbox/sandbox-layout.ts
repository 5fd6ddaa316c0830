import path from 'node:path';
import type { EntryKind } from './host-loaded-paths.js';

/** A path the layout guards, and what to put there when it does not exist yet. */
export interface GuardedPath {
  path: string;
  /** Given: a missing path inside the workspace gets an empty read-only placeholder of this kind. */
  kind?: EntryKind;
}

/** What a sandboxed command may see and touch. */
export interface SandboxLayout {
  /** Real path of the workspace: the only writable place that outlives the command. */
  workspace: string;
  /** Paths that must look empty inside (state, credentials, home folders). */
  hidden: readonly GuardedPath[];
  /** Paths under a hidden one that come back read-only (programs on PATH in a home folder). */
  reexposed: readonly string[];
  /** Writable paths inside the workspace that may not be moved or replaced (`.git` where agents commit). */
  pinned: readonly string[];
  /** Paths inside the workspace kept read-only: what the host loads later (code, settings, git's config). */
  readOnly: readonly GuardedPath[];
  /** `none`: no network at all (only a private loopback); `open`: the host's network. */
  network: 'none' | 'open';
  /** File descriptor bubblewrap reads a seccomp program from, when there is one. */
  seccompFd?: number;
}

export type PathKind = 'directory' | 'file' | 'missing';

export interface BwrapPlan {
  args: string[];
  /**
   * Placeholders bubblewrap will create in the workspace as mount points
   * (empty folders and files on the host): to remove once the command ends.
   */
  placeholders: Array<{ path: string; kind: EntryKind }>;
}

/**
 * The bubblewrap arguments for a layout, before the command itself. Pure:
 * `kindOf` says what exists, so the order of mounts can be tested without a
 * sandbox. Later mounts cover earlier ones, hence: the host read-only, then
 * private /dev, /proc, /tmp and /run, then hidden paths, then the workspace
 * writable, then what must stay hidden or read-only inside it. A guarded
 * path inside the workspace that does not exist yet is covered all the
 * same, by an empty read-only placeholder: an agent cannot create it.
 */
export function bwrapArguments(layout: SandboxLayout, kindOf: (p: string) => PathKind): BwrapPlan {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // Private and empty: no other process's files, and sockets such as docker.sock are gone
  // (/var/run links to /run).
  args.push('--tmpfs', '/tmp', '--tmpfs', '/run');
  const inWorkspace = (p: string) => isWithin(layout.workspace, p);
  const outside = outermost(
    layout.hidden.filter((h) => h.path !== layout.workspace && !inWorkspace(h.path)),
  );
  const inside = outermost(layout.hidden.filter((h) => inWorkspace(h.path)));
  // Read-only comes last: mount points for the workspace may still be made inside a hidden folder.
  const remount: string[] = [];
  const placeholders: BwrapPlan['placeholders'] = [];
  const emptyDir = (target: string) => {
    args.push('--tmpfs', target);
    remount.push('--remount-ro', target);
  };
  const cover = (guarded: GuardedPath, existing: (target: string) => void) => {
    const kind = kindOf(guarded.path);
    if (kind !== 'missing') return existing(guarded.path);
    // Outside the workspace nothing can be created; inside, only a kind we know gets a placeholder.
    if (guarded.kind === undefined || !inWorkspace(guarded.path)) return;
    if (!needsOwnPlaceholder(layout.workspace, placeholders, guarded.path)) return;
    // bubblewrap would create missing parents too, and leave them behind.
    if (kindOf(path.dirname(guarded.path)) !== 'directory') return;
    placeholders.push({ path: guarded.path, kind: guarded.kind });
    if (guarded.kind === 'directory') emptyDir(guarded.path);
    else args.push('--ro-bind', '/dev/null', guarded.path);
  };
  const hide = (target: string) => {
    if (kindOf(target) === 'directory') emptyDir(target);
    else args.push('--ro-bind', '/dev/null', target);
  };
  for (const hidden of outside) cover(hidden, hide);
  for (const back of layout.reexposed) {
    if (kindOf(back) !== 'missing' && !inWorkspace(back)) args.push('--ro-bind', back, back);
  }
  args.push('--bind', layout.workspace, layout.workspace);
  for (const hidden of inside) cover(hidden, hide);
  // A mount point cannot be renamed or removed: pinning keeps `.git` where it is.
  for (const pin of layout.pinned) {
    if (kindOf(pin) !== 'missing') args.push('--bind', pin, pin);
  }
  for (const kept of layout.readOnly)
    cover(kept, (target) => args.push('--ro-bind', target, target));
  args.push(...remount);
  args.push('--chdir', layout.workspace, '--setenv', 'TMPDIR', '/tmp');
  args.push('--unshare-all');
  if (layout.network === 'open') args.push('--share-net');
  // Root outside stays root-owned inside but without capabilities: no mounts, no ptrace, no chown.
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session');
  if (layout.seccompFd !== undefined) args.push('--seccomp', String(layout.seccompFd));
  return { args, placeholders };
}

/** A hidden folder's tmpfs already hides what is under it (and would bury that one's mount). */
function outermost(paths: readonly GuardedPath[]): GuardedPath[] {
  return paths.filter((p) => !paths.some((other) => isWithin(other.path, p.path)));
}

/**
 * A missing path needs its own placeholder unless one planned already covers
 * it (`.git/hooks` when `.git` itself is a placeholder).
 */
function needsOwnPlaceholder(
  workspace: string,
  planned: ReadonlyArray<{ path: string }>,
  target: string,
): boolean {
  return (
    !planned.some((p) => p.path === target || isWithin(p.path, target)) && target !== workspace
  );
}

export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
