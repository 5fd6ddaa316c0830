import { readFile, stat } from 'node:fs/promises';
import { ToolExecutionError } from '../../errors/index.js';
import { defineTool } from '../types.js';
import { throwIfAborted } from './abort.js';
import { looksBinary } from './binary.js';
import { toToolError } from './fs-error.js';
import { CappedOutput, clipLine } from './output-cap.js';
import { splitLines } from './text-file.js';
import { walkFiles } from './walk-files.js';
import { locationLabel, resolveInWorkspace, toWorkspaceRelative } from './workspace-path.js';

export interface GrepArgs {
  pattern: string;
  path?: string;
  case_insensitive?: boolean;
}

const LIMITS = { maxItems: 200, maxChars: 50_000 };
const MAX_LINE_CHARS = 300;
/** Bigger files are usually generated or data; skipping them keeps a search fast. */
const MAX_FILE_BYTES = 1024 * 1024;

export const grepTool = defineTool<GrepArgs>({
  name: 'grep',
  description:
    'Search file contents in the workspace with a JavaScript regular expression. Returns matching ' +
    'lines as "path:line: text" (path relative to the workspace root, line 1-based). Searches every ' +
    'text file under `path`, skipping node_modules, .git, symbolic links, binary files and files ' +
    'over 1 MB. Use glob to find files by name instead.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        description:
          'JavaScript regular expression source without slashes or flags, e.g. "function\\s+main" ' +
          'or "TODO|FIXME". Escape regex characters such as ( [ . * to match them literally.',
      },
      path: {
        type: 'string',
        description:
          'File or directory to search, relative to the workspace root. Defaults to the workspace root.',
      },
      case_insensitive: {
        type: 'boolean',
        description: 'Match regardless of letter case. Defaults to false.',
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) =>
    `Search for /${args.pattern}/${args.case_insensitive ? 'i' : ''} in ${args.path ?? '.'}`,
  async execute(args, ctx) {
    throwIfAborted(ctx.signal);
    const regex = compile(args.pattern, args.case_insensitive === true);
    const root = await resolveInWorkspace(ctx.workspace, args.path ?? '.', { mustExist: true });
    const rootDisplay = toWorkspaceRelative(ctx.workspace, root);

    const output = new CappedOutput(LIMITS, 'matching lines');
    try {
      for await (const file of walkFiles(root, ctx.signal)) {
        const text = await readSearchable(file, ctx.signal);
        if (text === undefined) continue;
        const display = toWorkspaceRelative(ctx.workspace, file);
        const lines = splitLines(text);
        for (let i = 0; i < lines.length; i += 1) {
          const line = lines[i] ?? '';
          if (regex.test(line))
            output.add(`${display}:${i + 1}: ${clipLine(line, MAX_LINE_CHARS)}`);
        }
      }
    } catch (error) {
      throw toToolError(error, rootDisplay);
    }
    if (output.total === 0)
      return `No matches for /${args.pattern}/ in ${locationLabel(rootDisplay)}.`;
    return output.render('narrow the pattern or the path');
  },
});

function compile(pattern: string, caseInsensitive: boolean): RegExp {
  try {
    // No `g` flag: test() must not carry lastIndex from one line to the next.
    return new RegExp(pattern, caseInsensitive ? 'i' : '');
  } catch (error) {
    // V8 repeats the pattern in its message ("Invalid regular expression: /(/: ..."); keep the reason.
    const reason = (error as Error).message.replace(
      /^Invalid regular expression: \/.*\/[a-z]*: /s,
      '',
    );
    throw new ToolExecutionError(`Invalid regular expression "${pattern}": ${reason}`);
  }
}

/** The file's text, or undefined for files grep skips (too big, binary, vanished). */
async function readSearchable(file: string, signal: AbortSignal): Promise<string | undefined> {
  throwIfAborted(signal);
  try {
    if ((await stat(file)).size > MAX_FILE_BYTES) return undefined;
    const buffer = await readFile(file, { signal });
    return looksBinary(buffer) ? undefined : buffer.toString('utf8');
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}
