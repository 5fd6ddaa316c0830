import path from 'node:path';

/** What a sandboxed command may see and touch. */
export interface SandboxLayout {
  /** Real path of the workspace: the only writable place that outlives the command. */
  workspace: string;
  /** Paths that must look empty inside (state, credentials, home folders). */
  hidden: readonly string[];
  /** Paths under a hidden one that come back read-only (programs on PATH in a home folder). */
  reexposed: readonly string[];
  /** Paths inside the workspace kept read-only (git's config and hooks run code later, outside). */
  readOnly: readonly string[];
  /** `none`: no network at all (only a private loopback); `open`: the host's network. */
  network: 'none' | 'open';
}

export type PathKind = 'directory' | 'file' | 'missing';

/**
 * The bubblewrap arguments for a layout, before the command itself. Pure:
 * `kindOf` says what exists, so the order of mounts can be tested without a
 * sandbox. Later mounts cover earlier ones, hence: the host read-only, then
 * private /dev, /proc, /tmp and /run, then hidden paths, then the workspace
 * writable, then what must stay hidden or read-only inside it.
 */
export function bwrapArguments(layout: SandboxLayout, kindOf: (p: string) => PathKind): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // Private and empty: no other process's files, and sockets such as docker.sock are gone
  // (/var/run links to /run).
  args.push('--tmpfs', '/tmp', '--tmpfs', '/run');
  const [outside, inside] = partition(layout.hidden, layout.workspace);
  // Read-only comes last: mount points for the workspace may still be made inside a hidden folder.
  const remount: string[] = [];
  const hide = (target: string): void => {
    const kind = kindOf(target);
    if (kind === 'directory') {
      args.push('--tmpfs', target);
      remount.push('--remount-ro', target);
    } else if (kind === 'file') {
      args.push('--ro-bind', '/dev/null', target);
    }
  };
  for (const hidden of outside) hide(hidden);
  for (const back of layout.reexposed) {
    if (kindOf(back) !== 'missing' && !isWithin(layout.workspace, back))
      args.push('--ro-bind', back, back);
  }
  args.push('--bind', layout.workspace, layout.workspace);
  for (const hidden of inside) hide(hidden);
  for (const kept of layout.readOnly) {
    if (kindOf(kept) !== 'missing') args.push('--ro-bind', kept, kept);
  }
  args.push(...remount);
  args.push('--chdir', layout.workspace, '--setenv', 'TMPDIR', '/tmp');
  args.push('--unshare-all');
  if (layout.network === 'open') args.push('--share-net');
  // Root outside stays root-owned inside but without capabilities: no mounts, no ptrace, no chown.
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session');
  return args;
}

/** Hidden paths outside the workspace are mounted before it, those inside after it. */
function partition(paths: readonly string[], workspace: string): [string[], string[]] {
  const outside: string[] = [];
  const inside: string[] = [];
  for (const p of paths) {
    if (p === workspace) continue;
    (isWithin(workspace, p) ? inside : outside).push(p);
  }
  return [outside, inside];
}

export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
