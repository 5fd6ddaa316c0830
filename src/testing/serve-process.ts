import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/src/cli/main.js');

/**
 * Starts the built `cadre serve` as a real process on a free port and waits
 * for its URL. Tests kill it themselves (SIGKILL is part of what they test).
 */
export function startServeProcess(
  cwd: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, CADRE_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveUrl({ url: match[1] as string, child });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${out}`));
    });
  });
}
