import { defineTool } from '../types.js';
import { globSpec } from './builtin-tool-specs.js';
import type { GlobArgs } from './glob-run.js';

export type { GlobArgs };

export const globTool = defineTool<GlobArgs>({
  ...globSpec,
  async execute(args, ctx) {
    const { runGlob } = await import('./glob-run.js');
    return runGlob(args, ctx);
  },
});
