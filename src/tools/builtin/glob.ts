import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '../../errors/index.js';
import { defineTool } from '../types.js';
import { throwIfAborted } from './abort.js';
import { toToolError } from './fs-error.js';
import { CappedOutput } from './output-cap.js';
import { IGNORED_DIR_NAMES } from './walk-files.js';
import {
  isInsideWorkspace,
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

export const globTool = defineTool<GlobArgs>({
  name: 'glob',
  description:
    'Find files in the workspace whose paths match a glob pattern, e.g. "**/*.ts" or ' +
    '"src/**/{index,main}.js". Returns matching file paths relative to the workspace root, sorted, ' +
    'one per line (ready to pass to read_file). node_modules and .git are always skipped; dotfiles ' +
    'are included. Use grep to search file contents instead.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        description:
          'Glob pattern relative to `path`: * matches within a name, ** across directories, ' +
          '{a,b} alternatives. Must not be absolute or contain "..".',
      },
      path: {
        type: 'string',
        description:
          'Directory to search from, relative to the workspace root. Defaults to the workspace root.',
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `Find files matching ${args.pattern}${args.path ? ` in ${args.path}` : ''}`,
  async execute(args, ctx) {
    throwIfAborted(ctx.signal);
    checkPattern(args.pattern);
    const base = await resolveInWorkspace(ctx.workspace, args.path ?? '.', { mustExist: true });
    const baseDisplay = toWorkspaceRelative(ctx.workspace, base);

    let found: string[];
    try {
      // Loaded on first use: it is the heaviest import of the built-in tools.
      const { glob } = await import('tinyglobby');
      found = await glob(args.pattern, {
        cwd: base,
        absolute: true,
        dot: true,
        ignore: IGNORE,
        expandDirectories: false,
        // Symlinked directories are not walked: they may lead outside the workspace.
        followSymbolicLinks: false,
        signal: ctx.signal,
      });
    } catch (error) {
      throw toToolError(error, baseDisplay);
    }
    throwIfAborted(ctx.signal);

    const matches = await confine(ctx.workspace, found, ctx.signal);
    if (matches.length === 0)
      return `No files match ${args.pattern} in ${locationLabel(baseDisplay)}.`;
    const output = new CappedOutput(LIMITS, 'files');
    for (const match of matches.sort()) output.add(match);
    return output.render('use a more specific pattern or path');
  },
});

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
async function confine(workspace: string, found: string[], signal: AbortSignal): Promise<string[]> {
  const kept: string[] = [];
  for (const file of found) {
    throwIfAborted(signal);
    if (!isInsideWorkspace(workspace, file)) continue;
    try {
      if (isInsideWorkspace(workspace, await realpath(file))) {
        kept.push(toWorkspaceRelative(workspace, file));
      }
    } catch {
      // Dangling link or deleted since the crawl: not a usable match.
    }
  }
  return kept;
}
