import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ToolExecutionError } from '../../errors/index.js';
import { compileSafePattern, type SafePattern } from '../../util/safe-regex.js';
import type { ToolContext } from '../types.js';
import { throwIfAborted } from './abort.js';
import { looksBinary } from './binary.js';
import { toToolError } from './fs-error.js';
import { CappedOutput, clipLine } from './output-cap.js';
import { splitLines } from './text-file.js';
import { readRegularFile } from './regular-file.js';
import { walkFiles } from './walk-files.js';
import {
  isProtectedPath,
  locationLabel,
  resolveInWorkspace,
  toWorkspaceRelative,
} from './workspace-path.js';

export interface GrepArgs {
  pattern: string;
  path?: string;
  case_insensitive?: boolean;
}

const LIMITS = { maxItems: 200, maxChars: 50_000 };
const MAX_LINE_CHARS = 300;
/** Bigger files are usually generated or data; skipping them keeps a search fast. */
const MAX_FILE_BYTES = 1024 * 1024;
/** Characters matched between yields, so one big file does not hold the event loop. */
const YIELD_EVERY_CHARS = 64 * 1024;

/** Runs one `grep` call; loaded on the first call, so importing the tool stays cheap. */
export async function runGrep(args: GrepArgs, ctx: ToolContext): Promise<unknown> {
  throwIfAborted(ctx.signal);
  const regex = compile(args.pattern, args.case_insensitive === true);
  const root = await resolveInWorkspace(ctx, args.path ?? '.', { mustExist: true });
  const rootDisplay = toWorkspaceRelative(ctx.workspace, root);

  const output = new CappedOutput(LIMITS, 'matching lines');
  try {
    for await (const file of walkFiles(root, ctx.signal, (p) => isProtectedPath(ctx, p))) {
      const text = await readSearchable(file, ctx.signal);
      if (text === undefined) continue;
      const display = toWorkspaceRelative(ctx.workspace, file);
      const lines = splitLines(text);
      let sinceYield = 0;
      for (let i = 0; i < lines.length; i += 1) {
        const line = lines[i] ?? '';
        if (regex.test(line)) output.add(`${display}:${i + 1}: ${clipLine(line, MAX_LINE_CHARS)}`);
        sinceYield += line.length;
        if (sinceYield >= YIELD_EVERY_CHARS) {
          sinceYield = 0;
          await yieldToEventLoop();
          throwIfAborted(ctx.signal);
        }
      }
    }
  } catch (error) {
    throw toToolError(error, rootDisplay);
  }
  if (output.total === 0)
    return `No matches for /${args.pattern}/ in ${locationLabel(rootDisplay)}.`;
  return output.render('narrow the pattern or the path');
}

/**
 * The pattern compiled for a linear-time engine: a model (or text injected
 * into its context) chooses it, and a backtracking RegExp such as /^(a+)+$/
 * can take minutes on a 40-character line.
 */
function compile(pattern: string, caseInsensitive: boolean): SafePattern {
  const compiled = compileSafePattern(pattern, caseInsensitive ? 'i' : '');
  if (!compiled.ok)
    throw new ToolExecutionError(`Invalid regular expression "${pattern}": ${compiled.reason}`);
  return compiled;
}

/** The file's text, or undefined for files grep skips (too big, binary, vanished). */
async function readSearchable(file: string, signal: AbortSignal): Promise<string | undefined> {
  throwIfAborted(signal);
  try {
    // Special files and hard links are skipped like binaries: never opened, never waited on.
    const buffer = await readRegularFile(file, file, MAX_FILE_BYTES, signal, () => 'too large');
    return looksBinary(buffer) ? undefined : buffer.toString('utf8');
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}
