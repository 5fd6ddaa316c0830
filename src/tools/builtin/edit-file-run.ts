import { ToolExecutionError } from '../../errors/index.js';
import type { ToolContext } from '../types.js';
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

/** Runs one `edit_file` call; loaded on the first call, so importing the tool stays cheap. */
export async function runEditFile(args: EditFileArgs, ctx: ToolContext): Promise<EditFileResult> {
  throwIfAborted(ctx.signal);
  if (args.old_string === '') throw new ToolExecutionError('old_string must not be empty.');
  if (args.old_string === args.new_string) {
    throw new ToolExecutionError('old_string and new_string are identical; nothing would change.');
  }
  const file = await resolveInWorkspace(ctx, args.path, { mustExist: true, forWriting: true });
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
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    count += 1;
  }
  return count;
}
