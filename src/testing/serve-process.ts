import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/src/cli/main.js');

/**
 * Starts the built `cadre serve` as a real process on a free port and waits
 * for its URL. Tests kill it themselves (SIGKILL is part of what they test).
 */
export async function startServeProcess(
  cwd: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<{ url: string; child: ChildProcess }> {
  const { child, line } = await startCadreProcess(
    cwd,
    ['serve', '--port', '0', ...args],
    env,
    /listening on (\S+)/,
  );
  return { url: line[1] as string, child };
}

/** Starts the built `cadre worker` as a real process and waits until it runs. */
export async function startWorkerProcess(
  cwd: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<ChildProcess> {
  return (await startCadreProcess(cwd, ['worker', ...args], env, /worker running/)).child;
}

/** Spawns the CLI and resolves once its stdout matches `ready`; output is kept for errors. */
export function startCadreProcess(
  cwd: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
): Promise<{ child: ChildProcess; line: RegExpExecArray; output: () => string }> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, CADRE_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolveStarted, reject) => {
    const timer = setTimeout(() => {
      // A process that never said it was ready is the caller's to stop no more: stop it here.
      child.kill('SIGKILL');
      reject(new Error(`cadre did not start: ${out}`));
    }, 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveStarted({ child, line: match, output: () => out });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cadre exited (${code}): ${out}`));
    });
  });
}
