import { defineTool } from '../types.js';
import { formatCount } from './output-cap.js';
import type { ReadFileArgs } from './read-file-run.js';

export type { ReadFileArgs };

// Here, not in the code run per call, because the description states the line limit.
const LIMITS = { maxItems: 2_000, maxChars: 100_000 };

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
    const { runReadFile } = await import('./read-file-run.js');
    return runReadFile(args, ctx, LIMITS);
  },
});

function rangeLabel({ start_line, end_line }: ReadFileArgs): string {
  if (start_line === undefined && end_line === undefined) return '';
  return ` (lines ${start_line ?? 1}–${end_line ?? 'end'})`;
}
