import { createSandbox, describeSandbox } from '../tools/sandbox/sandbox.js';
import { sandboxSettingsFromEnv } from '../tools/sandbox/sandbox-settings.js';

/**
 * The start-up line that says what confines shell commands here, so a
 * machine without a sandbox is never run unconfined in silence.
 */
export async function describeConfinement(env: NodeJS.ProcessEnv): Promise<string> {
  const settings = sandboxSettingsFromEnv(env);
  const status = await createSandbox(settings, env).status(AbortSignal.timeout(10_000));
  return describeSandbox(status, settings);
}

/** A warning for `cadre run` and `cadre chat` when the agent has a shell that nothing confines. */
export async function unconfinedShellWarning(
  tools: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  if (!tools.includes('shell')) return undefined;
  const settings = sandboxSettingsFromEnv(env);
  const status = await createSandbox(settings, env).status(AbortSignal.timeout(10_000));
  return status.kind === 'none' ? describeSandbox(status, settings) : undefined;
}
