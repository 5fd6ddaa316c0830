import { createInterface } from 'node:readline/promises';
import { CancelledError } from '../errors/cadre-error.js';

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
): (question: string, signal: AbortSignal) => Promise<string> {
  return (question, signal) =>
    new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input, output });
      let settled = false;
      const settle = (finish: () => void): void => {
        if (settled) return;
        settled = true;
        rl.close();
        finish();
      };
      // Ctrl-C or end of input at a prompt ends the wait instead of hanging it.
      rl.on('SIGINT', () => rl.close());
      rl.on('close', () => settle(() => reject(new CancelledError('No answer: input closed.'))));
      rl.question(question, { signal }).then(
        (answer) => settle(() => resolve(answer)),
        (error: unknown) =>
          settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    });
}
