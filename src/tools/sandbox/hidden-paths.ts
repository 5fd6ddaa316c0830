import path from 'node:path';

/** Files that hold other users' secrets on any Linux host. */
const SYSTEM_SECRETS = [
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ssh',
];

/**
 * What a sandboxed command must never see: Cadre's own state in the
 * workspace (`.cadre/`) and wherever the server keeps it, every home folder
 * (keys, tokens, cloud credentials, shell history), and system secrets.
 */
export function hiddenPaths(
  workspace: string,
  env: Readonly<Record<string, string | undefined>>,
  protectedPaths: readonly string[],
  extra: readonly string[],
): string[] {
  const homes = ['/root', '/home', ...(env.HOME && path.isAbsolute(env.HOME) ? [env.HOME] : [])];
  return unique([
    path.join(workspace, '.cadre'),
    ...protectedPaths,
    ...homes,
    ...SYSTEM_SECRETS,
    ...extra,
  ]);
}

/**
 * Program folders on the command's PATH that a hidden home folder would
 * take away (`~/.local/bin`, a version manager's node): shown read-only, so
 * hiding homes does not break the tools a person installed for themselves.
 */
export function pathFoldersUnder(
  hidden: readonly string[],
  searchPath: string | undefined,
  extra: readonly string[],
): string[] {
  const folders = (searchPath ?? '').split(':').filter((entry) => path.isAbsolute(entry));
  const covered = (folder: string) =>
    hidden.some((h) => folder === h || folder.startsWith(`${h}${path.sep}`));
  return unique([...folders.filter(covered), ...extra]).filter(
    (folder) => !folder.split(path.sep).includes('.cadre'),
  );
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => path.resolve(p)))];
}
