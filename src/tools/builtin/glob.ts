import { defineTool } from '../types.js';
import type { GlobArgs } from './glob-run.js';

export type { GlobArgs };

export const globTool = defineTool<GlobArgs>({
  name: 'glob',
  description:
    'Find files in the workspace whose paths match a glob pattern, e.g. "**/*.ts" or ' +
    '"src/**/{index,main}.js". Returns matching file paths relative to the workspace root, sorted, ' +
    'one per line (ready to pass to read_file). node_modules and .git are always skipped; dotfiles ' +
    'are included. Use grep to search file contents instead.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        description:
          'Glob pattern relative to `path`: * and ? match within a name, ** across directories, ' +
          '[abc] a class, {a,b} alternatives; parentheses are literal. Must not be absolute or ' +
          'contain "..".',
      },
      path: {
        type: 'string',
        description:
          'Directory to search from, relative to the workspace root. Defaults to the workspace root.',
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `Find files matching ${args.pattern}${args.path ? ` in ${args.path}` : ''}`,
  async execute(args, ctx) {
    const { runGlob } = await import('./glob-run.js');
    return runGlob(args, ctx);
  },
});
