import { ToolExecutionError } from '../../errors/index.js';
import type { ToolContext } from '../types.js';
import { throwIfAborted } from './abort.js';
import { CappedOutput, clipLine, formatCount, type OutputLimits } from './output-cap.js';
import { readTextFile, splitLines } from './text-file.js';
import { resolveInWorkspace, toWorkspaceRelative } from './workspace-path.js';

export interface ReadFileArgs {
  path: string;
  start_line?: number;
  end_line?: number;
}

const MAX_LINE_CHARS = 2_000;

/** Runs one `read_file` call; loaded on the first call, so importing the tool stays cheap. */
export async function runReadFile(
  args: ReadFileArgs,
  ctx: ToolContext,
  limits: OutputLimits,
): Promise<unknown> {
  throwIfAborted(ctx.signal);
  const file = await resolveInWorkspace(ctx, args.path, { mustExist: true });
  const display = toWorkspaceRelative(ctx.workspace, file);
  const lines = splitLines(await readTextFile(file, display, ctx.signal));

  const start = args.start_line ?? 1;
  const end = Math.min(args.end_line ?? lines.length, lines.length);
  if (args.end_line !== undefined && args.end_line < start) {
    throw new ToolExecutionError(
      `end_line (${args.end_line}) is before start_line (${start}); both are 1-based and inclusive.`,
    );
  }
  if (lines.length === 0) return `${display} is empty.`;
  if (start > lines.length) {
    throw new ToolExecutionError(
      `start_line ${formatCount(start)} is past the end of ${display}, which has ${formatCount(lines.length)} lines.`,
    );
  }

  const width = String(end).length;
  const output = new CappedOutput(limits, 'lines');
  for (let n = start; n <= end; n += 1) {
    output.add(`${String(n).padStart(width)}\t${clipLine(lines[n - 1] ?? '', MAX_LINE_CHARS)}`);
  }
  const next = start + output.shown;
  return output.render(`pass start_line=${next} to read on`);
}
