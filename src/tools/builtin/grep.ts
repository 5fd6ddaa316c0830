import { defineTool } from '../types.js';
import { grepSpec } from './builtin-tool-specs.js';
import type { GrepArgs } from './grep-run.js';

export type { GrepArgs };

export const grepTool = defineTool<GrepArgs>({
  ...grepSpec,
  async execute(args, ctx) {
    const { runGrep } = await import('./grep-run.js');
    return runGrep(args, ctx);
  },
});
