import { defineTool } from '../types.js';
import type { LsArgs } from './ls-run.js';

export type { LsArgs };

export const lsTool = defineTool<LsArgs>({
  name: 'ls',
  description:
    'List the entries of a directory in the workspace. Directories come first and end with "/", ' +
    'files show their size in bytes, symbolic links end with "@". Use it to explore the layout ' +
    'before reading files; use glob to find files by name pattern across many directories.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description:
          'Directory to list, relative to the workspace root (absolute paths inside the workspace ' +
          'also work). Defaults to the workspace root.',
      },
    },
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `List ${args.path ?? '.'}`,
  async execute(args, ctx) {
    const { runLs } = await import('./ls-run.js');
    return runLs(args, ctx);
  },
});
