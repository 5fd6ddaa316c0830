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
