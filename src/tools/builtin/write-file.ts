import { defineTool } from '../types.js';
import { formatCount } from './output-cap.js';
import type { WriteFileArgs, WriteFileResult } from './write-file-run.js';

export type { WriteFileArgs, WriteFileResult };

export const writeFileTool = defineTool<WriteFileArgs>({
  name: 'write_file',
  description:
    'Write a text file in the workspace, replacing its whole content. Creates the file and any ' +
    'missing parent directories; overwrites the file if it exists. Prefer edit_file for changing ' +
    'part of an existing file. Returns the path, whether the file was created or overwritten, and ' +
    'the number of bytes written.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        minLength: 1,
        description:
          'File to write, relative to the workspace root (absolute paths inside the workspace also work).',
      },
      content: {
        type: 'string',
        description: 'The complete new content of the file, written as UTF-8.',
      },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  sideEffect: true,
  // Writing the same content to the same path again leaves the same file.
  delivery: 'exactly-once',
  defaultApproval: 'require',
  preview: (args) => `Write ${formatCount(Buffer.byteLength(args.content))} bytes to ${args.path}`,
  async execute(args, ctx): Promise<WriteFileResult> {
    const { runWriteFile } = await import('./write-file-run.js');
    return runWriteFile(args, ctx);
  },
});
