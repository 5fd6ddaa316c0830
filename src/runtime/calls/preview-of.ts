import type { Tool } from '../../tools/types.js';
import { visibleText } from '../../util/visible-text.js';
import { describeArgs } from './describe-args.js';

/**
 * What a call will do, as a person reads it before deciding: the tool's own
 * preview (or its name and arguments), made visible here, once, for every
 * display (terminal, page, MCP client, `/v1`, A2A). Tools build previews
 * from raw arguments and leave the escaping to this.
 */
export const previewOf = (
  tool: Pick<Tool, 'name' | 'preview'>,
  args: Record<string, unknown>,
): string => visibleText(tool.preview?.(args) ?? `${tool.name} ${describeArgs(args)}`);
