import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '../../errors/index.js';
import { defineTool } from '../types.js';
import { throwIfAborted } from './abort.js';
import { toToolError } from './fs-error.js';
import { formatCount } from './output-cap.js';
import { writeRegularFile } from './regular-file.js';
import { resolveInWorkspace, toWorkspaceRelative } from './workspace-path.js';

export interface WriteFileArgs {
  path: string;
  content: string;
}

export interface WriteFileResult {
  /** Relative to the workspace root. */
  path: string;
  action: 'created' | 'overwrote';
  bytesWritten: number;
}

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
  defaultApproval: 'require',
  preview: (args) => `Write ${formatCount(Buffer.byteLength(args.content))} bytes to ${args.path}`,
  async execute(args, ctx): Promise<WriteFileResult> {
    throwIfAborted(ctx.signal);
    const file = await resolveInWorkspace(ctx, args.path);
    const display = toWorkspaceRelative(ctx.workspace, file);
    try {
      await refuseDirectory(file, display);
      await mkdir(path.dirname(file), { recursive: true });
      throwIfAborted(ctx.signal);
      const existed = await writeRegularFile(file, display, args.content, ctx.signal);
      return {
        path: display,
        action: existed ? 'overwrote' : 'created',
        bytesWritten: Buffer.byteLength(args.content),
      };
    } catch (error) {
      throw toToolError(error, display);
    }
  },
});

async function refuseDirectory(file: string, display: string): Promise<void> {
  try {
    if ((await stat(file)).isDirectory()) {
      throw new ToolExecutionError(`${display} is a directory; write_file only writes files.`);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
}
