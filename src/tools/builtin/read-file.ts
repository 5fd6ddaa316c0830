import { defineTool } from '../types.js';
import { readFileSpec, READ_FILE_LIMITS } from './builtin-tool-specs.js';
import type { ReadFileArgs } from './read-file-run.js';

export type { ReadFileArgs };

export const readFileTool = defineTool<ReadFileArgs>({
  ...readFileSpec,
  async execute(args, ctx) {
    const { runReadFile } = await import('./read-file-run.js');
    return runReadFile(args, ctx, READ_FILE_LIMITS);
  },
});
