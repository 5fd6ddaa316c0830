// Test-only helpers: watching processes the shell started.
export { isRunning, waitFor } from '../../../testing/processes.js';

/** The process ids a command printed, one a line. */
export function pidsIn(text: string): number[] {
  return text
    .split('\n')
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}
