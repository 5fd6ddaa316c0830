import { ToolExecutionError } from '../../errors/index.js';
import { defineTool } from '../types.js';
import { throwIfAborted } from './abort.js';
import { toToolError } from './fs-error.js';
import { formatCount } from './output-cap.js';
import { readTextFile } from './text-file.js';
import { writeRegularFile } from './regular-file.js';
import { resolveInWorkspace, toWorkspaceRelative } from './workspace-path.js';

export interface EditFileArgs {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface EditFileResult {
  /** Relative to the workspace root. */
  path: string;
  replacements: number;
}

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
    throwIfAborted(ctx.signal);
    if (args.old_string === '') throw new ToolExecutionError('old_string must not be empty.');
    if (args.old_string === args.new_string) {
      throw new ToolExecutionError(
        'old_string and new_string are identical; nothing would change.',
      );
    }
    const file = await resolveInWorkspace(ctx, args.path, { mustExist: true });
    const display = toWorkspaceRelative(ctx.workspace, file);
    const text = await readTextFile(file, display, ctx.signal);

    const count = countOccurrences(text, args.old_string);
    if (count === 0) {
      throw new ToolExecutionError(
        `old_string was not found in ${display}; copy it exactly from the file, including ` +
          'whitespace, without line-number prefixes.',
      );
    }
    if (count > 1 && args.replace_all !== true) {
      throw new ToolExecutionError(
        `old_string occurs ${formatCount(count)} times in ${display}; include more surrounding ` +
          'text to make it unique, or set replace_all to true to replace every occurrence.',
      );
    }

    // split/join rather than String.replace: `$&`-style patterns in new_string stay literal.
    const updated = text.split(args.old_string).join(args.new_string);
    throwIfAborted(ctx.signal);
    try {
      await writeRegularFile(file, display, updated, ctx.signal);
    } catch (error) {
      throw toToolError(error, display);
    }
    return { path: display, replacements: count };
  },
});

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    count += 1;
  }
  return count;
}

/** One line, bounded: approval cards show a hint of the edit, not the whole diff. */
function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW_SNIPPET_CHARS ? flat : `${flat.slice(0, PREVIEW_SNIPPET_CHARS)}…`;
}
