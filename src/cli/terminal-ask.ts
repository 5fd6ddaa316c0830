import { createInterface } from 'node:readline/promises';
import { CancelledError } from '../errors/cadre-error.js';
import type { CliIO } from './cli-io.js';

/**
 * Asks one question on a terminal. Each question has its own readline,
 * closed before the answer is handed back: a caller that asks again at once
 * (a chat command such as `/clear`) must not have its new readline's input
 * paused by the old one closing late, which would leave nothing for the
 * process to wait on.
 */
export function terminalAsk(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  /** Ctrl-C at the question: what is running is cancelled before the question ends. */
  onInterrupt: () => void = () => {},
): NonNullable<CliIO['ask']> {
  return (question, signal, history) =>
    new Promise<string>((resolve, reject) => {
      // Up arrow walks `history` (chat lines), never the answers to other questions.
      const rl = createInterface({
        input,
        output,
        history: history ? [...history] : [],
        historySize: history ? 500 : 0,
        removeHistoryDuplicates: true,
      });
      if (history)
        rl.on('history', (lines: string[]) => history.splice(0, history.length, ...lines));
      let settled = false;
      const settle = (finish: () => void): void => {
        if (settled) return;
        settled = true;
        rl.close();
        finish();
      };
      // Ctrl-C or end of input at a prompt ends the wait instead of hanging it; Ctrl-C
      // cancels first, so the caller sees an aborted run, not a missing answer.
      rl.on('SIGINT', () => {
        output.write('\n');
        onInterrupt();
        rl.close();
      });
      rl.on('close', () => settle(() => reject(new CancelledError('No answer: input closed.'))));
      rl.question(question, { signal }).then(
        (answer) => settle(() => resolve(answer)),
        (error: unknown) =>
          settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    });
}
