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
    /** Sees progress as it is written, so a test can act when the run reaches a step. */
    onStderr?: (text: string) => void;
  },
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => {
      stderr += t;
      options.onStderr?.(t);
    },
    env: options.env ?? {},
    cwd: options.cwd,
    isTTY: false,
    ...(options.ask ? { ask: options.ask } : {}),
    ...(options.onInterrupt ? { onInterrupt: options.onInterrupt } : {}),
  });
  return { code, stdout, stderr };
}
