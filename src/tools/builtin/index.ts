import type { Tool } from '../types.js';
import { createWebSearchTool } from '../web/web-search-tool.js';
import { builtinTools } from './builtin-tools.js';

export { editFileTool } from './edit-file.js';
export { globTool } from './glob.js';
export { grepTool } from './grep.js';
export { lsTool } from './ls.js';
export { readFileTool } from './read-file.js';
export { writeFileTool } from './write-file.js';
export { resolveInWorkspace } from './workspace-path.js';
// The package entry takes these from builtin-tools.ts, without web_search's code.
export { builtinToolNames, builtinTools, fileTools } from './builtin-tools.js';

/** The built-ins plus the tools `env` configures (web_search with a search provider's key). */
export function availableTools(env: NodeJS.ProcessEnv): Tool[] {
  const search = createWebSearchTool(env);
  return search ? [...builtinTools, search] : [...builtinTools];
}
