import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One command running in a real terminal (a tmux pane), for tests of what a person sees. */
export interface TerminalSession {
  /** What the pane shows now, one line per row, trailing blanks trimmed. */
  screen(): Promise<string>;
  /** Resolves with the screen once it matches; rejects with the screen after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Keys as tmux names them: `C-c`, `Enter`, `Up`, or literal text. */
  keys(...keys: string[]): Promise<void>;
  /** The command's exit code, once it has ended. */
  exitCode(): Promise<number>;
}

export const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * A private tmux server on `socket` (a path in the test's own folder), so a
 * test touches no one else's sessions; `killServer` ends it.
 */
export function tmuxServer(socket: string, folder: string) {
  const tmux = (...args: string[]) => run('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  let sessions = 0;
  return {
    /** Runs `shellCommand` (sh syntax) in `cwd`, in a 160×40 terminal. */
    async start(shellCommand: string, cwd: string): Promise<TerminalSession> {
      const name = `s${++sessions}`;
      const codeFile = join(folder, `${name}.code`);
      // The exit code is written, then the channel signalled; the pane stays open to be read.
      const script = `${shellCommand}; echo $? > ${quote(codeFile)}; tmux -S ${quote(socket)} wait-for -S ${name}; exec sleep 600`;
      await tmux('new-session', '-d', '-s', name, '-x', '160', '-y', '40', '-c', cwd, script);
      const screen = async () =>
        (await tmux('capture-pane', '-p', '-t', name)).stdout
          .split('\n')
          .map((line) => line.trimEnd())
          .join('\n')
          .trimEnd();
      return {
        screen,
        async waitFor(pattern, timeoutMs = 15_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const shown = await screen();
            if (pattern.test(shown)) return shown;
            if (Date.now() > deadline)
              throw new Error(`timed out waiting for ${String(pattern)}; the screen:\n${shown}`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        },
        async keys(...keys) {
          await tmux('send-keys', '-t', name, ...keys);
        },
        async exitCode() {
          await tmux('wait-for', name);
          return Number((await readFile(codeFile, 'utf8')).trim());
        },
      };
    },
    async killServer(): Promise<void> {
      await tmux('kill-server').catch(() => undefined);
    },
  };
}

/** Whether tmux is installed (the terminal tests need it; CI installs it). */
export async function hasTmux(): Promise<boolean> {
  return run('tmux', ['-V']).then(
    () => true,
    () => false,
  );
}
