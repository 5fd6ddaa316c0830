// Test-only helpers for the sandbox's attack tests: whether bubblewrap runs here, and a shell
// tool confined the way Cadre confines it, with a home folder the test controls.
import path from 'node:path';
import type { TestWorkspace } from '../../builtin/testing/test-support.js';
import { createShellTool, type ShellResult } from '../../shell/shell-tool.js';
import { createSandbox } from '../sandbox.js';
import { sandboxSettingsFromEnv, type SandboxSettings } from '../sandbox-settings.js';

export const probeSignal: AbortSignal = new AbortController().signal;

/** Whether bubblewrap starts here; CI sets CADRE_REQUIRE_SANDBOX=1 so the attacks never skip there. */
export async function bubblewrapHere(): Promise<boolean> {
  const here =
    (await createSandbox(sandboxSettingsFromEnv({}), process.env).status(probeSignal)).kind ===
    'bwrap';
  if (process.env.CADRE_REQUIRE_SANDBOX === '1' && !here)
    throw new Error('CADRE_REQUIRE_SANDBOX=1 but bubblewrap cannot start here');
  return here;
}

export type SandboxedShell = (
  command: string,
  protectedPaths?: string[],
  workspace?: string,
) => Promise<ShellResult>;

/** A shell tool in its sandbox, run in `ws` (or another workspace) with HOME set to `home`. */
export function sandboxedShell(
  ws: TestWorkspace,
  home: string,
  settings: Partial<SandboxSettings> = {},
  env: Record<string, string> = {},
): SandboxedShell {
  const shellEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...env };
  const sandbox = createSandbox(
    { ...sandboxSettingsFromEnv({}), read: [path.dirname(process.execPath)], ...settings },
    shellEnv,
  );
  const tool = createShellTool({ env: shellEnv, sandbox, killGraceMs: 100 });
  return async (command, protectedPaths = [], workspace = ws.root) =>
    (await tool.execute({ command }, { ...ws.ctx, workspace, protectedPaths })) as ShellResult;
}
