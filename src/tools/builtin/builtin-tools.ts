import type { Tool } from '../types.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { readFileTool } from './read-file.js';
import { writeFileTool } from './write-file.js';
import { shellTool } from '../shell/shell-tool.js';
import { webFetchTool } from '../web/web-fetch-tool.js';
import { todoWriteTool } from '../todo/todo-tool.js';

/** The workspace-confined file tools. */
export const fileTools: readonly Tool[] = Object.freeze([
  lsTool,
  readFileTool,
  globTool,
  grepTool,
  writeFileTool,
  editFileTool,
]);

/**
 * The tools every agent can be granted: the file tools, the shell (run in
 * the workspace), web_fetch and todo_write (whose list lives in the run's
 * events); stateless, so safe to share.
 */
export const builtinTools: readonly Tool[] = Object.freeze([
  ...fileTools,
  shellTool,
  webFetchTool,
  todoWriteTool,
]);

export function builtinToolNames(): string[] {
  return builtinTools.map((tool) => tool.name);
}
