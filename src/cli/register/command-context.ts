import type { CliIO } from '../cli-io.js';

/** What a command's registration needs: the terminal, and where its action leaves the exit code. */
export interface CommandContext {
  io: CliIO;
  setExit(code: number): void;
}
