import { defineTool, type Tool } from '../types.js';
import {
  editFileSpec,
  globSpec,
  grepSpec,
  lsSpec,
  readFileSpec,
  shellSpec,
  todoWriteSpec,
  webFetchSpec,
  writeFileSpec,
  type ToolSpec,
} from './builtin-tool-specs.js';

/**
 * A built-in tool whose spec (name, schema, side effect, preview, pattern
 * check) is here now and whose module loads with its first call: importing
 * the package entry then loads none of the tools' modules. The loaded tool is
 * kept, so later calls do not import again.
 */
function deferred<Args>(
  spec: ToolSpec<Args>,
  load: () => Promise<Tool>,
  options: { approvalFloor?: true } = {},
): Tool {
  let loaded: Promise<Tool> | undefined;
  const tool = (): Promise<Tool> => (loaded ??= load());
  return defineTool<Args>({
    ...spec,
    ...(options.approvalFloor
      ? { approvalFloor: async (signal) => (await tool()).approvalFloor?.(signal) }
      : {}),
    // The real tool takes the arguments as the registry validated them.
    execute: (args, ctx) =>
      tool().then((real) => real.execute(args as Record<string, unknown>, ctx)),
  });
}

/** The workspace-confined file tools. */
export const fileTools: readonly Tool[] = Object.freeze([
  deferred(lsSpec, async () => (await import('./ls.js')).lsTool),
  deferred(readFileSpec, async () => (await import('./read-file.js')).readFileTool),
  deferred(globSpec, async () => (await import('./glob.js')).globTool),
  deferred(grepSpec, async () => (await import('./grep.js')).grepTool),
  deferred(writeFileSpec, async () => (await import('./write-file.js')).writeFileTool),
  deferred(editFileSpec, async () => (await import('./edit-file.js')).editFileTool),
]);

/**
 * The tools every agent can be granted: the file tools, the shell (run in
 * the workspace), web_fetch and todo_write (whose list lives in the run's
 * events); stateless, so safe to share.
 */
export const builtinTools: readonly Tool[] = Object.freeze([
  ...fileTools,
  // The shell's floor (no sandbox: every command needs a person) comes from its module.
  deferred(shellSpec(), async () => (await import('../shell/shell-tool.js')).shellTool, {
    approvalFloor: true,
  }),
  deferred(webFetchSpec, async () => (await import('../web/web-fetch-tool.js')).webFetchTool),
  deferred(todoWriteSpec, async () => (await import('../todo/todo-tool.js')).todoWriteTool),
]);

export function builtinToolNames(): string[] {
  return builtinTools.map((tool) => tool.name);
}
