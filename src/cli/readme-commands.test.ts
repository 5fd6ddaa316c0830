import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import type { CliIO } from './cli-io.js';
import { runCli } from './program.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(`${root}/README.md`, 'utf8');

/** Every `./cadre …` line of the README's shell blocks, with its line number. */
function cadreCommands(): { line: number; words: string[] }[] {
  const commands: { line: number; words: string[] }[] = [];
  let inShell = false;
  readme.split('\n').forEach((text, index) => {
    if (text.startsWith('```')) inShell = !inShell && /^```(sh|bash)\b/.test(text);
    else if (inShell && /(^|&& )\.\/cadre /.test(text)) {
      const command = text.slice(text.indexOf('./cadre '));
      const words = parse(command).filter((word): word is string => typeof word === 'string');
      commands.push({ line: index + 1, words });
    }
  });
  return commands;
}

// Files a README command names that the README itself has the reader create first.
const createdByTheReader = new Map([
  ['agents/summarizer.yaml', 'the definition shown under "Writing an agent"'],
  ['.cadre/runs/sandbox.json', 'written by the --record command just before'],
  ['.cadre/runs', 'written by the --record command'],
]);

const capturingIO = (out: string[]): CliIO => ({
  stdout: (text) => out.push(text),
  stderr: () => undefined,
  env: {},
  cwd: root,
  isTTY: false,
});

describe('the README commands', () => {
  const commands = cadreCommands();

  it('are found (the parser reads the shell blocks)', () => {
    expect(commands.length).toBeGreaterThan(15);
  });

  it.each(commands)('line $line names a real subcommand', async ({ words }) => {
    const subcommand = words[1] ?? '';
    const out: string[] = [];
    if (subcommand === '-p') {
      // `cadre -p "prompt"` is no subcommand: the program's help shows it.
      expect(await runCli(['--help'], capturingIO(out))).toBe(0);
      expect(out.join('')).toContain('$ cadre -p "');
      return;
    }
    expect(await runCli([subcommand, '--help'], capturingIO(out))).toBe(0);
    // An unknown name would print the program's own help instead.
    expect(out.join('')).toContain(`Usage: cadre ${subcommand} `);
  });

  it.each(commands)('line $line names files that exist in the repository', ({ words }) => {
    const paths = words.filter((word) => /^(examples|src|spec|agents|\.cadre)\//.test(word));
    const missing = paths.filter(
      (path) => !existsSync(`${root}/${path}`) && !createdByTheReader.has(path),
    );
    expect(missing).toEqual([]);
  });
});

describe('./cadre at the repository root', () => {
  it('starts the built CLI on Node 22 without npx', async () => {
    const { stdout } = await promisify(execFile)(`${root}/cadre`, ['--version']);
    expect(stdout.trim()).toBe('0.1.0');
  });
});
