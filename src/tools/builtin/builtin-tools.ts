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
 * A built-in tool whose spec (name, schema, side effect, preview) is here now
 * and whose module loads with its first call: importing the package entry
 * then loads none of the tools' modules. The loaded tool is kept, so later
 * calls do not import again. A tool that checks patterns (shell, web_fetch)
 * offers `load`, which the gate awaits before it checks a narrowed call;
 * asked before that, it refuses every call (it fails closed).
 */
export function deferredTool<Args>(
  spec: ToolSpec<Args>,
  load: () => Promise<Tool>,
  options: { approvalFloor?: true; patterns?: true } = {},
): Tool {
  let loading: Promise<Tool> | undefined;
  let loaded: Tool | undefined;
  const tool = (): Promise<Tool> => (loading ??= load().then((real) => (loaded = real)));
  return defineTool<Args>({
    ...spec,
    ...(options.approvalFloor
      ? { approvalFloor: async (signal) => (await tool()).approvalFloor?.(signal) }
      : {}),
    ...(options.patterns
      ? {
          load: async () => void (await tool()),
          outsidePatterns: (args, patterns) =>
            loaded?.outsidePatterns
              ? loaded.outsidePatterns(args as Record<string, unknown>, patterns)
              : `${spec.name} could not check its patterns yet`,
        }
      : {}),
    // The real tool takes the arguments as the registry validated them.
    execute: (args, ctx) =>
      tool().then((real) => real.execute(args as Record<string, unknown>, ctx)),
  });
}

/** The workspace-confined file tools. */
export const fileTools: readonly Tool[] = Object.freeze([
  deferredTool(lsSpec, async () => (await import('./ls.js')).lsTool),
  deferredTool(readFileSpec, async () => (await import('./read-file.js')).readFileTool),
  deferredTool(globSpec, async () => (await import('./glob.js')).globTool),
  deferredTool(grepSpec, async () => (await import('./grep.js')).grepTool),
  deferredTool(writeFileSpec, async () => (await import('./write-file.js')).writeFileTool),
  deferredTool(editFileSpec, async () => (await import('./edit-file.js')).editFileTool),
]);

/**
 * The tools every agent can be granted: the file tools, the shell (run in
 * the workspace), web_fetch and todo_write (whose list lives in the run's
 * events); stateless, so safe to share.
 */
export const builtinTools: readonly Tool[] = Object.freeze([
  ...fileTools,
  // The shell's floor (no sandbox: every command needs a person) comes from its module.
  deferredTool(shellSpec(), async () => (await import('../shell/shell-tool.js')).shellTool, {
    approvalFloor: true,
    patterns: true,
  }),
  deferredTool(webFetchSpec, async () => (await import('../web/web-fetch-tool.js')).webFetchTool, {
    patterns: true,
  }),
  deferredTool(todoWriteSpec, async () => (await import('../todo/todo-tool.js')).todoWriteTool),
]);

export function builtinToolNames(): string[] {
  return builtinTools.map((tool) => tool.name);
}
