import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '../../errors/index.js';
import type { ToolContext } from '../types.js';
import { throwIfAborted } from './abort.js';
import { toToolError } from './fs-error.js';
import { CappedOutput, formatCount } from './output-cap.js';
import {
  isProtectedPath,
  locationLabel,
  resolveInWorkspace,
  toWorkspaceRelative,
} from './workspace-path.js';

export interface LsArgs {
  path?: string;
}

const LIMITS = { maxItems: 500, maxChars: 50_000 };

interface Entry {
  name: string;
  stats: Stats;
}

/** Runs one `ls` call; loaded on the first call, so importing the tool stays cheap. */
export async function runLs(args: LsArgs, ctx: ToolContext): Promise<unknown> {
  throwIfAborted(ctx.signal);
  const dir = await resolveInWorkspace(ctx, args.path ?? '.', { mustExist: true });
  const display = toWorkspaceRelative(ctx.workspace, dir);
  const entries = (await readEntries(dir, display, ctx.signal)).filter(
    (entry) => !isProtectedPath(ctx, path.join(dir, entry.name)),
  );
  if (entries.length === 0) return `${locationLabel(display)} is empty.`;

  const output = new CappedOutput(LIMITS, 'entries');
  for (const entry of entries.sort(dirsFirstByName)) output.add(formatEntry(entry));
  return output.render(`list a subdirectory or use glob to narrow the listing`);
}

async function readEntries(dir: string, display: string, signal: AbortSignal): Promise<Entry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new ToolExecutionError(
        `${display} is a file, not a directory; use read_file to read it.`,
      );
    }
    throw toToolError(error, display);
  }
  const entries: Entry[] = [];
  for (const name of names) {
    throwIfAborted(signal);
    try {
      // lstat, not stat: a symlink is shown as a link and never followed out of the workspace.
      entries.push({ name, stats: await lstat(path.join(dir, name)) });
    } catch {
      // Deleted between readdir and lstat: nothing to show.
    }
  }
  return entries;
}

function dirsFirstByName(a: Entry, b: Entry): number {
  const rank = Number(b.stats.isDirectory()) - Number(a.stats.isDirectory());
  if (rank !== 0) return rank;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function formatEntry({ name, stats }: Entry): string {
  if (stats.isDirectory()) return `${name}/`;
  if (stats.isSymbolicLink()) return `${name}@`;
  if (stats.isFile()) return `${name}  ${formatCount(stats.size)} bytes`;
  return `${name}  (special file)`;
}
