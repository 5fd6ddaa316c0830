import { defineTool } from '../types.js';
import { lsSpec } from './builtin-tool-specs.js';
import type { LsArgs } from './ls-run.js';

export type { LsArgs };

export const lsTool = defineTool<LsArgs>({
  ...lsSpec,
  async execute(args, ctx) {
    const { runLs } = await import('./ls-run.js');
    return runLs(args, ctx);
  },
});
