import { ToolExecutionError } from '../../errors/index.js';
import { defineTool } from '../types.js';
import { throwIfAborted } from './abort.js';
import { CappedOutput, clipLine, formatCount } from './output-cap.js';
import { readTextFile, splitLines } from './text-file.js';
import { resolveInWorkspace, toWorkspaceRelative } from './workspace-path.js';

export interface ReadFileArgs {
  path: string;
  start_line?: number;
  end_line?: number;
}

const LIMITS = { maxItems: 2_000, maxChars: 100_000 };
const MAX_LINE_CHARS = 2_000;

export const readFileTool = defineTool<ReadFileArgs>({
  name: 'read_file',
  description:
    'Read a text file from the workspace. Each line is prefixed with its 1-based line number and a ' +
    'tab; the prefix is not part of the file (leave it out when quoting text to edit_file). Long ' +
    `files are cut at ${formatCount(LIMITS.maxItems)} lines with a note; pass start_line and ` +
    'end_line to read a specific range. Binary files are refused.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        minLength: 1,
        description:
          'File to read, relative to the workspace root (absolute paths inside the workspace also work).',
      },
      start_line: {
        type: 'integer',
        minimum: 1,
        description: 'First line to return, 1-based and inclusive. Defaults to 1.',
      },
      end_line: {
        type: 'integer',
        minimum: 1,
        description:
          'Last line to return, 1-based and inclusive. Defaults to the end of the file; values past ' +
          'the end are clamped.',
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `Read ${args.path}${rangeLabel(args)}`,
  async execute(args, ctx) {
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
    const output = new CappedOutput(LIMITS, 'lines');
    for (let n = start; n <= end; n += 1) {
      output.add(`${String(n).padStart(width)}\t${clipLine(lines[n - 1] ?? '', MAX_LINE_CHARS)}`);
    }
    const next = start + output.shown;
    return output.render(`pass start_line=${next} to read on`);
  },
});

function rangeLabel({ start_line, end_line }: ReadFileArgs): string {
  if (start_line === undefined && end_line === undefined) return '';
  return ` (lines ${start_line ?? 1}–${end_line ?? 'end'})`;
}
