import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trustCommand } from '../cli/commands/trust.js';

export interface TestTrust {
  /** The env to run the CLI with: `CADRE_TRUST_FILE` in a folder of its own (never ~/.config). */
  env: NodeJS.ProcessEnv;
  trustFile: string;
  dispose(): Promise<void>;
}

/**
 * Trusts everything the project at `cwd` loads, as `cadre trust` does, in a
 * trust file outside the project; tests that run a project's own tools,
 * agent modules or MCP files start from here.
 */
export async function trustForTests(cwd: string, env: NodeJS.ProcessEnv = {}): Promise<TestTrust> {
  const folder = await mkdtemp(join(tmpdir(), 'cadre-trust-'));
  const trustFile = join(folder, 'trust.json');
  const trusted = { ...env, CADRE_TRUST_FILE: trustFile };
  let errors = '';
  const code = await trustCommand(
    [],
    {},
    {
      stdout: () => {},
      stderr: (text) => (errors += text),
      env: trusted,
      cwd,
      isTTY: false,
    },
  );
  if (code !== 0) throw new Error(`cadre trust failed: ${errors}`);
  return {
    env: trusted,
    trustFile,
    dispose: () => rm(folder, { recursive: true, force: true }),
  };
}
