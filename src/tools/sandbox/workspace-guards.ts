import { readdirSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { GIT_CODE_ENTRIES, hostLoadedPaths } from './host-loaded-paths.js';
import type { GuardedPath, PathKind } from './sandbox-layout.js';
import type { SandboxSettings } from './sandbox-settings.js';

/** What the layout keeps fixed in a workspace, and the repositories found in it at launch. */
export interface WorkspaceGuards {
  pinned: string[];
  readOnly: GuardedPath[];
  /** Folders (the workspace and its direct subfolders) that held a `.git` when the command started. */
  repositories: string[];
}

/**
 * What stays read-only in a workspace: everything the host loads later, and
 * git's folders — the workspace's own and those of repositories one level
 * down, which editors find and run `git status` in. Whole, unless agents may
 * commit; then each is pinned in place and only what runs programs (config,
 * hooks, info) stays read-only.
 */
export function workspaceGuards(
  workspace: string,
  env: Readonly<Record<string, string | undefined>>,
  git: SandboxSettings['git'],
  kindOf: (p: string) => PathKind,
): WorkspaceGuards {
  const repositories = repositoriesIn(workspace, kindOf);
  const pinned: string[] = [];
  const readOnly: GuardedPath[] = hostLoadedPaths(workspace, env);
  for (const repository of repositories) {
    const gitDir = path.join(repository, '.git');
    if (git === 'read' || kindOf(gitDir) !== 'directory') {
      if (repository !== workspace) readOnly.push({ path: gitDir });
      continue;
    }
    pinned.push(gitDir);
    const own = readOnly.findIndex((entry) => entry.path === gitDir);
    if (own >= 0) readOnly.splice(own, 1);
    for (const name of GIT_CODE_ENTRIES)
      readOnly.push({
        path: path.join(gitDir, name),
        kind: name.startsWith('config') ? 'file' : 'directory',
      });
  }
  return { pinned, readOnly, repositories };
}

/**
 * After a command: a repository it made in a subfolder (the workspace's own
 * `.git` cannot be made) is set aside as `.git.untrusted`, so no editor or
 * host `git` obeys its config. The work in the folder stays. Returns the
 * folders concerned, relative to the workspace.
 */
export async function setAsideNewRepositories(
  workspace: string,
  before: readonly string[],
  kindOf: (p: string) => PathKind,
): Promise<string[]> {
  const known = new Set(before);
  const moved: string[] = [];
  for (const repository of repositoriesIn(workspace, kindOf)) {
    if (known.has(repository) || repository === workspace) continue;
    const gitDir = path.join(repository, '.git');
    let target = `${gitDir}.untrusted`;
    for (let n = 2; kindOf(target) !== 'missing'; n++) target = `${gitDir}.untrusted-${n}`;
    await rename(gitDir, target).catch(() => undefined);
    moved.push(path.relative(workspace, repository));
  }
  return moved;
}

function repositoriesIn(workspace: string, kindOf: (p: string) => PathKind): string[] {
  const found = kindOf(path.join(workspace, '.git')) === 'missing' ? [] : [workspace];
  for (const name of subfolders(workspace)) {
    if (name === '.git' || name === '.cadre') continue;
    const folder = path.join(workspace, name);
    if (kindOf(path.join(folder, '.git')) !== 'missing') found.push(folder);
  }
  return found;
}

function subfolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
