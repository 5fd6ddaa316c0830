import type { CliIO } from '../cli/cli-io.js';
import { runCli } from '../cli/program.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output, as tests need it. */
export async function runCliCaptured(
  argv: string[],
  options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    onInterrupt?: CliIO['onInterrupt'];
    ask?: CliIO['ask'];
  },
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: options.env ?? {},
    cwd: options.cwd,
    isTTY: false,
    ...(options.ask ? { ask: options.ask } : {}),
    ...(options.onInterrupt ? { onInterrupt: options.onInterrupt } : {}),
  });
  return { code, stdout, stderr };
}
