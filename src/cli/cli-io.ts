/** What a command may touch of the outside world; tests pass their own. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Colour and interactive prompts only on a terminal. */
  isTTY: boolean;
  /**
   * Asks a question on the terminal; absent when stdin is not a TTY. With
   * `history` (newest first, updated in place) the Up arrow walks it.
   */
  ask?: (question: string, signal: AbortSignal, history?: string[]) => Promise<string>;
  /** Reads all of stdin; absent when stdin is a terminal (nothing was piped). */
  readStdin?: () => Promise<string>;
  /** Subscribes to Ctrl-C; returns an unsubscribe function. */
  onInterrupt?: (handler: () => void) => () => void;
  /** Starts Ctrl-C counting afresh (a chat turn ended: the next Ctrl-C cancels again). */
  resetInterrupts?: () => void;
}

/**
 * Exit codes: 0 success, 1 invalid input / failed run, 2 setup problem (no model), 3 a call
 * needed approval that no one could give (no terminal, not pre-approved), 130 interrupted.
 */
export const EXIT = { ok: 0, failed: 1, setup: 2, unapproved: 3, interrupted: 130 } as const;
