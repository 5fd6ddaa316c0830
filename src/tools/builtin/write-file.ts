import { defineTool } from '../types.js';
import { writeFileSpec } from './builtin-tool-specs.js';
import type { WriteFileArgs, WriteFileResult } from './write-file-run.js';

export type { WriteFileArgs, WriteFileResult };

export const writeFileTool = defineTool<WriteFileArgs>({
  ...writeFileSpec,
  async execute(args, ctx): Promise<WriteFileResult> {
    const { runWriteFile } = await import('./write-file-run.js');
    return runWriteFile(args, ctx);
  },
});
