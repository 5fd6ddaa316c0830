import type { Tool } from '../types.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { readFileTool } from './read-file.js';
import { writeFileTool } from './write-file.js';
import { shellTool } from '../shell/shell-tool.js';

export { editFileTool, globTool, grepTool, lsTool, readFileTool, writeFileTool };
export { resolveInWorkspace } from './workspace-path.js';

/**
 * The tools every agent can be granted: the workspace-confined file tools
 * and the shell (run in the workspace); stateless, so safe to share.
 */
export const builtinTools: readonly Tool[] = Object.freeze([
  lsTool,
  readFileTool,
  globTool,
  grepTool,
  writeFileTool,
  editFileTool,
  shellTool,
]);

export function builtinToolNames(): string[] {
  return builtinTools.map((tool) => tool.name);
}
