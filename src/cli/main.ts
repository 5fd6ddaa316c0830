#!/usr/bin/env node
import type { CliIO } from './cli-io.js';
import { EXIT } from './cli-io.js';
import { runCli } from './program.js';
import { terminalAsk } from './terminal-ask.js';

/** The process entry: wires signals, terminal and streams to the command runner. */
async function main(): Promise<void> {
  const interruptHandlers = new Set<() => void>();
  let interrupts = 0;
  const interrupt = (): void => {
    interrupts++;
    for (const handler of interruptHandlers) handler();
  };
  process.on('SIGINT', () => {
    // First Ctrl-C: cancel and let the command print what was done. Second: leave now.
    if (interrupts > 0 || interruptHandlers.size === 0) process.exit(EXIT.interrupted);
    interrupt();
  });

  const io: CliIO = {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stderr.isTTY),
    ...(process.stdin.isTTY
      ? {
          // Ctrl-C at a question (the terminal gives it to readline, not as a
          // signal) cancels what is running, as it does anywhere else.
          ask: terminalAsk(process.stdin, process.stderr, interrupt),
        }
      : { readStdin: () => readAll(process.stdin) }),
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

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += String(chunk);
  return text;
}

await main();
