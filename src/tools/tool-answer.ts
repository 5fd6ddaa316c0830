import type { InlineImage } from '../model/types.js';

/**
 * A tool's answer with images beside its output: the output goes back as
 * usual, the images reach models that take them (MCP tools' image content).
 */
export class ToolAnswer {
  constructor(
    readonly output: unknown,
    readonly images: readonly InlineImage[],
  ) {}
}
