import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '../../errors/index.js';
import { compileSafeGlob } from '../../util/safe-glob.js';
import type { SafePattern } from '../../util/safe-regex.js';
import type { ToolContext } from '../types.js';
import { throwIfAborted } from './abort.js';
import { toToolError } from './fs-error.js';
import { CappedOutput } from './output-cap.js';
import { IGNORED_DIR_NAMES } from './walk-files.js';
import {
  isInsideWorkspace,
  isProtectedPath,
  type WorkspaceScope,
  locationLabel,
  resolveInWorkspace,
  toWorkspaceRelative,
} from './workspace-path.js';

export interface GlobArgs {
  pattern: string;
  path?: string;
}

const LIMITS = { maxItems: 500, maxChars: 50_000 };
const IGNORE = IGNORED_DIR_NAMES.map((name) => `**/${name}/**`);

/** Runs one `glob` call; loaded on the first call, so importing the tool stays cheap. */
export async function runGlob(args: GlobArgs, ctx: ToolContext): Promise<unknown> {
  throwIfAborted(ctx.signal);
  const pattern = args.pattern.replace(/^(?:\.\/)+/, '');
  const matcher = compilePattern(pattern);
  const base = await resolveInWorkspace(ctx, args.path ?? '.', { mustExist: true });
  const baseDisplay = toWorkspaceRelative(ctx.workspace, base);

  let found: string[];
  try {
    // Loaded on first use: it is the heaviest import of the built-in tools.
    const { escapePath, glob } = await import('tinyglobby');
    // tinyglobby only lists files: its picomatch RegExps backtrack, so the
    // model's pattern is matched below with the linear-time engine instead.
    const dirs = literalDirs(pattern);
    const depth = fixedDepth(pattern);
    const listed = await glob(dirs === '' ? '**' : `${escapePath(dirs)}/**`, {
      cwd: base,
      // Without `**` a match sits at a known depth: nothing deeper is read.
      ...(depth === undefined ? {} : { deep: depth }),
      absolute: true,
      dot: true,
      ignore: IGNORE,
      expandDirectories: false,
      // Symlinked directories are not walked: they may lead outside the workspace.
      followSymbolicLinks: false,
      signal: ctx.signal,
    });
    found = listed.filter((file) => matcher.test(toPosix(path.relative(base, file))));
  } catch (error) {
    throw toToolError(error, baseDisplay);
  }
  throwIfAborted(ctx.signal);

  const matches = await confine(ctx, found, ctx.signal);
  if (matches.length === 0)
    return `No files match ${args.pattern} in ${locationLabel(baseDisplay)}.`;
  const output = new CappedOutput(LIMITS, 'files');
  for (const match of matches.sort()) output.add(match);
  return output.render('use a more specific pattern or path');
}

function compilePattern(pattern: string): SafePattern {
  checkPattern(pattern);
  const compiled = compileSafeGlob(pattern);
  if (!compiled.ok) throw new ToolExecutionError(`Invalid glob "${pattern}": ${compiled.reason}`);
  return compiled;
}

/** How many directories deep every match lies, when the pattern fixes it (no `**`, no braces). */
function fixedDepth(pattern: string): number | undefined {
  if (/\*\*|[{}]/.test(pattern)) return undefined;
  return pattern.split('/').length - 1;
}

/** Leading directory names without glob syntax: the listing starts there, not at the base. */
function literalDirs(pattern: string): string {
  const dirs: string[] = [];
  for (const name of pattern.split('/').slice(0, -1)) {
    if (name === '' || /[*?[\]{}()!@+\\]/.test(name)) break;
    dirs.push(name);
  }
  return dirs.join('/');
}

const toPosix = (relative: string): string => relative.split(path.sep).join('/');

function checkPattern(pattern: string): void {
  if (pattern.startsWith('/') || path.isAbsolute(pattern)) {
    throw new ToolExecutionError(
      `The pattern "${pattern}" is absolute and could reach outside the workspace root; ` +
        'give it relative to `path` (the workspace root by default).',
    );
  }
  // Split on brace syntax too, so "{..,src}/*" is caught as well as "../*".
  if (pattern.split(/[/{},]/).includes('..')) {
    throw new ToolExecutionError(
      `The pattern "${pattern}" contains "..", which could reach outside the workspace root; ` +
        'set `path` to the directory to search instead.',
    );
  }
}

/** Keeps matches whose real path is inside the workspace (a matched symlink may point anywhere). */
async function confine(
  scope: WorkspaceScope,
  found: string[],
  signal: AbortSignal,
): Promise<string[]> {
  const { workspace } = scope;
  const kept: string[] = [];
  for (const file of found) {
    throwIfAborted(signal);
    if (!isInsideWorkspace(workspace, file) || isProtectedPath(scope, file)) continue;
    try {
      const real = await realpath(file);
      if (isInsideWorkspace(workspace, real) && !isProtectedPath(scope, real)) {
        kept.push(toWorkspaceRelative(workspace, file));
      }
    } catch {
      // Dangling link or deleted since the crawl: not a usable match.
    }
  }
  return kept;
}
