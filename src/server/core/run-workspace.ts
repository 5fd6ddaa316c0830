import { createHash } from 'node:crypto';
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../errors/index.js';
import { STATE_FOLDER } from '../../tools/builtin/workspace-path.js';

/** Whose files a server run works on: one folder per user, or per user and thread. */
export type WorkspaceScope = 'user' | 'thread';

/**
 * Where a server's runs work. `shared`: every run in one folder (an embedding
 * that wants it, and the tests of the core); `per-user`: a folder of each
 * user's own (or each thread's) under `base`, made on first use.
 */
export type WorkspacePlan =
  { kind: 'shared'; folder: string } | { kind: 'per-user'; base: string; scope: WorkspaceScope };

/** What a run's workspace is derived from: stored with the run, so any worker finds the same. */
export interface RunOwner {
  userId: string;
  threadId: string;
}

/**
 * A folder name for an id that no id can abuse: lower-case letters and
 * digits of the id for the operator's eye, then a hash of the exact id, so
 * `Ann`, `ann` and `../ann` are three different folders on any file system.
 */
export function safeFolderName(id: string): string {
  const readable = id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24);
  const hash = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 32);
  return readable === '' ? hash : `${readable}-${hash}`;
}

/** The folder of a run under a per-user plan (pure: no file is touched). */
export function workspacePathFor(
  plan: Extract<WorkspacePlan, { kind: 'per-user' }>,
  owner: RunOwner,
): string {
  const user = path.join(plan.base, safeFolderName(owner.userId));
  switch (plan.scope) {
    case 'user':
      return user;
    case 'thread':
      return path.join(user, safeFolderName(owner.threadId));
    default:
      return plan.scope satisfies never;
  }
}

/**
 * The workspace of a run, made (mode 0700) when missing. Each folder on the
 * way from the base must be a real directory: a symlink planted where a
 * workspace belongs would send a user's tools into someone else's files.
 * Its `.cadre/` is made too, so the sandbox always has it to mask.
 */
export async function runWorkspace(plan: WorkspacePlan, owner: RunOwner): Promise<string> {
  if (plan.kind === 'shared') return plan.folder;
  const folder = workspacePathFor(plan, owner);
  // Checked before anything is made inside: a folder made through a planted link lands elsewhere.
  let current = plan.base;
  for (const part of [...path.relative(plan.base, folder).split(path.sep), STATE_FOLDER]) {
    current = path.join(current, part);
    await plainFolder(current);
  }
  return folder;
}

/** Makes `folder` (0700) when missing; refuses anything but a real directory there. */
async function plainFolder(folder: string): Promise<void> {
  let info = await lstat(folder).catch(() => undefined);
  if (info === undefined) {
    // Another worker may make it at the same moment: its EEXIST is fine, the lstat decides.
    await mkdir(folder, { mode: 0o700 }).catch(() => undefined);
    info = await lstat(folder);
  }
  if (!info.isDirectory())
    throw new ConfigError(`The workspace ${folder} is not a plain folder; refusing to use it.`);
}
