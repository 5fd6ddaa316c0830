#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import type { CliIO } from './cli-io.js';
import { EXIT } from './cli-io.js';
import { CancelledError } from '../errors/cadre-error.js';
import { runCli } from './program.js';

/** The process entry: wires signals, terminal and streams to the command runner. */
async function main(): Promise<void> {
  const interruptHandlers = new Set<() => void>();
  let interrupts = 0;
  process.on('SIGINT', () => {
    // First Ctrl-C: cancel and let the command print what was done. Second: leave now.
    if (++interrupts > 1 || interruptHandlers.size === 0) process.exit(EXIT.interrupted);
    for (const handler of interruptHandlers) handler();
  });

  const io: CliIO = {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stderr.isTTY),
    ...(process.stdin.isTTY
      ? {
          ask: (question: string, signal: AbortSignal) =>
            new Promise<string>((resolve, reject) => {
              const rl = createInterface({ input: process.stdin, output: process.stderr });
              // Ctrl-C or end of input at a prompt ends the wait instead of hanging it.
              rl.on('SIGINT', () => rl.close());
              rl.on('close', () => reject(new CancelledError('No answer: input closed.')));
              rl.question(question, { signal })
                .then(resolve, reject)
                .finally(() => rl.close());
            }),
        }
      : {}),
    resetInterrupts: () => {
      interrupts = 0;
    },
    onInterrupt: (handler) => {
      interruptHandlers.add(handler);
      return () => interruptHandlers.delete(handler);
    },
  };

  process.exitCode = await runCli(process.argv.slice(2), io);
}

await main();
