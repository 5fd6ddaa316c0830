import { defineTool } from '../types.js';
import { editFileSpec } from './builtin-tool-specs.js';
import type { EditFileArgs, EditFileResult } from './edit-file-run.js';

export type { EditFileArgs, EditFileResult };

export const editFileTool = defineTool<EditFileArgs>({
  ...editFileSpec,
  async execute(args, ctx): Promise<EditFileResult> {
    const { runEditFile } = await import('./edit-file-run.js');
    return runEditFile(args, ctx);
  },
});
