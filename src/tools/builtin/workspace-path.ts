import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '../../errors/index.js';
import { hostLoadedEntryOf } from '../sandbox/host-loaded-paths.js';
import { toToolError } from './fs-error.js';

/** A workspace and the places in or beside it that no tool may reach. */
export interface WorkspaceScope {
  workspace: string;
  /** Cadre's own state besides `<workspace>/.cadre` (the server's database, keys, token files). */
  protectedPaths?: readonly string[];
}

/** Cadre's state folder inside any workspace: policy, agents, keys, the database. */
export const STATE_FOLDER = '.cadre';

/**
 * True for Cadre's own state: `<workspace>/.cadre` and the protected paths,
 * and anything under them. A tool that reached them could read the audit key
 * or other users' threads, or write itself a policy. A protected folder that
 * holds the workspace (a server's whole folder) masks what lies around the
 * workspace, not the workspace itself, as the sandbox does.
 */
export function isProtectedPath(scope: WorkspaceScope, absolute: string): boolean {
  const around = (root: string) => isInsideWorkspace(root, scope.workspace);
  const roots = [
    path.join(scope.workspace, STATE_FOLDER),
    ...(scope.protectedPaths ?? []).filter((root) => !around(root)),
  ];
  return roots.some((root) => isInsideWorkspace(root, absolute));
}

export interface ResolveOptions {
  /** Fail with "no such file" instead of resolving a path that is yet to be created. */
  mustExist?: boolean;
  /** The tool writes there: refuse what the host loads later (code, settings, policy, `.git`). */
  forWriting?: boolean;
}

/** Lexical containment: `root` itself counts as inside; `..foo` names do not count as escapes. */
export function isInsideWorkspace(workspace: string, candidate: string): boolean {
  const rel = path.relative(workspace, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The form shown to models and people: relative, forward slashes, `.` for the root. */
export function toWorkspaceRelative(workspace: string, absolute: string): string {
  const rel = path.relative(workspace, absolute);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

/** Names a location in a sentence: `src`, or `the workspace root` instead of a bare `.`. */
export function locationLabel(display: string): string {
  return display === '.' ? 'the workspace root' : display;
}

/**
 * Resolves `userPath` (relative to the workspace, or absolute inside it) to an
 * absolute real path inside `workspace`. Symlinks are followed and their
 * targets checked, so no component can lead outside; for a path yet to be
 * created the nearest existing ancestor is checked instead.
 */
export async function resolveInWorkspace(
  scope: string | WorkspaceScope,
  userPath: string,
  options: ResolveOptions = {},
): Promise<string> {
  const confined = typeof scope === 'string' ? { workspace: scope } : scope;
  const resolved = await resolveInside(confined.workspace, userPath, options);
  const lexical = path.resolve(confined.workspace, userPath);
  if (isProtectedPath(confined, resolved) || isProtectedPath(confined, lexical)) {
    throw new ToolExecutionError(
      `Path "${userPath}" is Cadre's own state (its database, keys and settings); no tool may read or change it.`,
    );
  }
  if (options.forWriting) refuseHostLoaded(confined.workspace, userPath, [resolved, lexical]);
  return resolved;
}

/** What the host later imports or obeys is written by a person, never by an agent. */
function refuseHostLoaded(workspace: string, userPath: string, targets: readonly string[]): void {
  for (const target of targets) {
    const entry = hostLoadedEntryOf(workspace, target);
    if (entry === undefined) continue;
    throw new ToolExecutionError(
      `Path "${userPath}" is ${entry.kind === 'directory' ? `under ${entry.name}/` : entry.name}, ` +
        `which agents may not change: ${entry.why}. A person edits it, then trusts it with ` +
        '`cadre trust`.',
    );
  }
}

async function resolveInside(
  workspace: string,
  userPath: string,
  options: ResolveOptions,
): Promise<string> {
  if (userPath.includes('\0')) throw new ToolExecutionError('The path contains a NUL character.');
  const candidate = path.resolve(workspace, userPath);
  if (!isInsideWorkspace(workspace, candidate)) throw outside(userPath, false);
  const display = toWorkspaceRelative(workspace, candidate);

  const real = await realpathOrMissing(candidate, display);
  if (real !== undefined) {
    if (!isInsideWorkspace(workspace, real)) throw outside(userPath, true);
    return real;
  }
  if (options.mustExist) throw new ToolExecutionError(`No such file or directory: ${display}`);
  return resolveMissing(workspace, candidate, userPath, display);
}

async function resolveMissing(
  workspace: string,
  candidate: string,
  userPath: string,
  display: string,
): Promise<string> {
  const tail: string[] = [];
  let current = candidate;
  let realAncestor: string | undefined;
  // Terminates: the workspace (or at worst `/`) exists.
  while (realAncestor === undefined) {
    tail.unshift(path.basename(current));
    current = path.dirname(current);
    realAncestor = await realpathOrMissing(current, display);
  }
  if (!isInsideWorkspace(workspace, realAncestor)) throw outside(userPath, true);

  // realpath failed but the entry may still exist as a dangling symlink, which a write would follow.
  const firstMissing = path.join(realAncestor, tail[0] ?? '');
  if (await exists(firstMissing, display)) {
    throw new ToolExecutionError(
      `Path "${userPath}" goes through a symbolic link whose target does not exist; refusing to follow it.`,
    );
  }
  return path.join(realAncestor, ...tail);
}

async function realpathOrMissing(target: string, display: string): Promise<string | undefined> {
  try {
    return await realpath(target);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw toToolError(error, display);
  }
}

async function exists(target: string, display: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw toToolError(error, display);
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function outside(userPath: string, viaSymlink: boolean): ToolExecutionError {
  const how = viaSymlink ? ' (through a symbolic link)' : '';
  return new ToolExecutionError(
    `Path "${userPath}" is outside the workspace root${how}; file tools only work inside the workspace.`,
  );
}
