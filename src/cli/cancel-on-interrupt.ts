import type { CliIO } from './cli-io.js';

/**
 * The first Ctrl-C aborts the returned signal and prints `notice`; the
 * command still finishes and prints what was done (main exits on a second).
 */
export function cancelOnInterrupt(
  io: CliIO,
  notice: string,
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const unsubscribe = io.onInterrupt?.(() => {
    io.stderr(`\n${notice}\n`);
    controller.abort();
  });
  return { signal: controller.signal, dispose: () => unsubscribe?.() };
}
