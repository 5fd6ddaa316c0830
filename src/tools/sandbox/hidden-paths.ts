import path from 'node:path';
import { STATE_FOLDER } from '../builtin/workspace-path.js';
import type { GuardedPath } from './sandbox-layout.js';

/** Files that hold other users' secrets on any Linux host. */
const SYSTEM_SECRETS = [
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ssh',
];

/**
 * Dotfiles a shell or git reads at start, hidden even before they exist when
 * a workspace holds the home folder (a command could otherwise create one).
 */
const HOME_STARTUP_FILES: readonly GuardedPath[] = [
  { path: '.ssh', kind: 'directory' },
  { path: '.config', kind: 'directory' },
  { path: '.bashrc', kind: 'file' },
  { path: '.bash_profile', kind: 'file' },
  { path: '.bash_login', kind: 'file' },
  { path: '.profile', kind: 'file' },
  { path: '.zshrc', kind: 'file' },
  { path: '.zprofile', kind: 'file' },
  { path: '.zshenv', kind: 'file' },
  { path: '.gitconfig', kind: 'file' },
];

export interface HiddenPathsInput {
  workspace: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Cadre's state outside the workspace's `.cadre/` (database, keys, a server's whole folder). */
  protectedPaths: readonly string[];
  /** `CADRE_SANDBOX_HIDE`: absolute, or relative to the workspace. */
  extra: readonly string[];
  /** The dot entries of the home folder, read when the workspace holds it. */
  homeEntries: (home: string) => readonly string[];
}

/**
 * What a sandboxed command must never see: Cadre's own state in the
 * workspace (`.cadre/`, even before it exists) and wherever the server keeps
 * it, every home folder (keys, tokens, cloud credentials, shell history),
 * and system secrets. A home folder inside the workspace is hidden whole; a
 * workspace that IS a home folder (only when a person asked for it) still
 * hides every dotfile in it, and the start-up files before they exist.
 */
export function hiddenPaths(input: HiddenPathsInput): GuardedPath[] {
  const { workspace, env } = input;
  const homes = ['/root', '/home', ...(env.HOME && path.isAbsolute(env.HOME) ? [env.HOME] : [])];
  const guarded: GuardedPath[] = [
    { path: path.join(workspace, STATE_FOLDER), kind: 'directory' },
    ...[...input.protectedPaths, ...homes, ...SYSTEM_SECRETS].map((p) => ({ path: p })),
    ...input.extra.map((p) => ({ path: resolveFrom(workspace, p, env) })),
  ];
  for (const home of homes.map((h) => path.resolve(h))) {
    if (home !== workspace) continue;
    const names = new Set([
      ...input.homeEntries(home).filter((name) => name.startsWith('.')),
      ...HOME_STARTUP_FILES.map((entry) => entry.path),
    ]);
    for (const name of names) {
      if (name === STATE_FOLDER) continue;
      const known = HOME_STARTUP_FILES.find((entry) => entry.path === name);
      guarded.push({ path: path.join(home, name), ...(known?.kind ? { kind: known.kind } : {}) });
    }
  }
  return unique(guarded);
}

/**
 * Program folders on the command's PATH that a hidden home folder would
 * take away (`~/.local/bin`, a version manager's node): shown read-only, so
 * hiding homes does not break the tools a person installed for themselves.
 */
export function pathFoldersUnder(
  hidden: readonly GuardedPath[],
  searchPath: string | undefined,
  extra: readonly string[],
  workspace: string,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const folders = (searchPath ?? '').split(':').filter((entry) => path.isAbsolute(entry));
  const covered = (folder: string) =>
    hidden.some(({ path: h }) => folder === h || folder.startsWith(`${h}${path.sep}`));
  const named = extra.map((p) => resolveFrom(workspace, p, env));
  return [...new Set([...folders.filter(covered), ...named].map((p) => path.resolve(p)))].filter(
    (folder) => !folder.split(path.sep).includes(STATE_FOLDER),
  );
}

/** `~/x` from the home folder, `../x` from the workspace: a relative path is never dropped. */
function resolveFrom(
  workspace: string,
  entry: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if ((entry === '~' || entry.startsWith('~/')) && env.HOME && path.isAbsolute(env.HOME))
    return path.join(env.HOME, entry.slice(1));
  return path.resolve(workspace, entry);
}

function unique(paths: readonly GuardedPath[]): GuardedPath[] {
  const seen = new Map<string, GuardedPath>();
  for (const entry of paths) {
    const resolved = path.resolve(entry.path);
    if (!seen.has(resolved)) seen.set(resolved, { ...entry, path: resolved });
  }
  return [...seen.values()];
}
