import { defineTool } from '../types.js';
import type { EditFileArgs, EditFileResult } from './edit-file-run.js';

export type { EditFileArgs, EditFileResult };

const PREVIEW_SNIPPET_CHARS = 40;

export const editFileTool = defineTool<EditFileArgs>({
  name: 'edit_file',
  description:
    'Replace exact text in an existing text file in the workspace. old_string must match the file ' +
    'exactly, including whitespace and indentation, and without the line-number prefixes read_file ' +
    'shows. It must occur exactly once unless replace_all is true; include surrounding lines to make ' +
    'it unique. Returns the number of replacements made.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        minLength: 1,
        description:
          'File to edit, relative to the workspace root (absolute paths inside the workspace also work).',
      },
      old_string: {
        type: 'string',
        minLength: 1,
        description: 'The exact text to replace, copied from the file.',
      },
      new_string: {
        type: 'string',
        description: 'The text to put in its place; may be empty to delete old_string.',
      },
      replace_all: {
        type: 'boolean',
        description:
          'Replace every occurrence instead of requiring exactly one. Defaults to false.',
      },
    },
    required: ['path', 'old_string', 'new_string'],
    additionalProperties: false,
  },
  sideEffect: true,
  defaultApproval: 'require',
  preview: (args) =>
    `Edit ${args.path}: replace ${args.replace_all ? 'every ' : ''}"${snippet(args.old_string)}" ` +
    `with "${snippet(args.new_string)}"`,
  async execute(args, ctx): Promise<EditFileResult> {
    const { runEditFile } = await import('./edit-file-run.js');
    return runEditFile(args, ctx);
  },
});

/** One line, bounded: approval cards show a hint of the edit, not the whole diff. */
function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW_SNIPPET_CHARS ? flat : `${flat.slice(0, PREVIEW_SNIPPET_CHARS)}…`;
}
