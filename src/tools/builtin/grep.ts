import { defineTool } from '../types.js';
import type { GrepArgs } from './grep-run.js';

export type { GrepArgs };

export const grepTool = defineTool<GrepArgs>({
  name: 'grep',
  description:
    'Search file contents in the workspace with a regular expression (JavaScript syntax, without ' +
    'backreferences or lookaround). Returns matching lines as "path:line: text" (path relative to ' +
    'the workspace root, line 1-based). Searches every text file under `path`, skipping ' +
    'node_modules, .git, symbolic links, binary files and files over 1 MB. Use glob to find files ' +
    'by name instead.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        description:
          'JavaScript regular expression source without slashes or flags, e.g. "function\\s+main" ' +
          'or "TODO|FIXME". Escape regex characters such as ( [ . * to match them literally. ' +
          'Backreferences (\\1) and lookaround ((?=…), (?<=…)) are not supported.',
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
    const { runGrep } = await import('./grep-run.js');
    return runGrep(args, ctx);
  },
});
