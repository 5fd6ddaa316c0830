import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '../../errors/index.js';
import type { ToolContext } from '../types.js';
import { throwIfAborted } from './abort.js';
import { toToolError } from './fs-error.js';
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

/** Runs one `write_file` call; loaded on the first call, so importing the tool stays cheap. */
export async function runWriteFile(
  args: WriteFileArgs,
  ctx: ToolContext,
): Promise<WriteFileResult> {
  throwIfAborted(ctx.signal);
  const file = await resolveInWorkspace(ctx, args.path, { forWriting: true });
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
}

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
