import { execFile } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';
import type { CliIO } from './cli-io.js';
import { runCli } from './program.js';

let project: string;

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'cadre-init-')));
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
  await rm(`${project}-trust`, { recursive: true, force: true });
});

// Trust is recorded outside the project (never in the real ~/.config).
const cli = (args: string[], cwd = project) =>
  runCliCaptured(args, {
    cwd,
    env: { HOME: `${cwd}-home`, CADRE_TRUST_FILE: join(`${project}-trust`, 'trust.json') },
  });

describe('cadre init', () => {
  it('writes a starter agent, tool, policy and .gitignore that work as they are (scripted model)', async () => {
    const init = await cli(['init']);
    expect(init.code, init.stderr).toBe(0);
    for (const file of [
      'agents/helper.yaml',
      'tools/word-count.tool.ts',
      'policy.yaml',
      '.gitignore',
    ])
      expect(init.stdout).toContain(`  ${file}\n`);
    expect(await readFile(join(project, '.gitignore'), 'utf8')).toContain('.cadre/\n');

    // The starter tool and policy are the project's code and configuration: trusted first.
    const trust = await cli(['trust']);
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toMatch(/trusted {2}tools\/word-count\.tool\.ts {2}sha256 [0-9a-f]{12}/);
    expect(trust.stdout).toContain('policy.yaml');

    const validate = await cli(['validate', 'agents']);
    expect(validate.stdout).toContain('ok agents/helper.yaml (helper)');
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    // The starter tool imports `defineTool` from 'cadre', which resolves without a local install.
    const tools = await cli(['tools']);
    expect(tools.stderr).toBe('');
    expect(tools.stdout).toContain('word_count  code tools/word-count.tool.ts');

    await writeFile(join(project, 'README.md'), 'one two three four\n');
    await writeFile(
      join(project, 'turns.json'),
      JSON.stringify([
        { parts: [{ functionCall: { name: 'word_count', args: { text: 'one two three four' } } }] },
        { parts: [{ text: 'Four words.' }] },
      ]),
    );
    const run = await cli([
      'run',
      'helper',
      'How many words are in README.md?',
      '--policy',
      'policy.yaml',
      '--model',
      'scripted:turns.json',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { traces: Array<{ tool: string; output: string }> };
    expect(result.traces).toEqual([
      expect.objectContaining({ tool: 'word_count', output: '{"words":4}' }),
    ]);
  });

  it('refuses to overwrite existing files and writes nothing', async () => {
    const again = await cli(['init']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'not overwriting agents/helper.yaml, tools/word-count.tool.ts, policy.yaml in .: nothing was written',
    );
  });

  it('adds .cadre/ to a .gitignore that exists, keeping its lines', async () => {
    const other = await realpath(await mkdtemp(join(tmpdir(), 'cadre-init-ignore-')));
    try {
      await writeFile(join(other, '.gitignore'), 'node_modules');
      const init = await cli(['init', 'sub'], other);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain('Created in sub:');
      await writeFile(join(other, 'sub/.gitignore'), 'dist/\n');
      const nested = await cli(['init'], other);
      expect(nested.code).toBe(0);
      expect(nested.stdout).toContain('.gitignore: added .cadre/');
      expect(await readFile(join(other, '.gitignore'), 'utf8')).toBe(
        "node_modules\n# Cadre's state: database, audit key, recordings\n.cadre/\n",
      );
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});

const captured = (out: string[]): CliIO => ({
  stdout: (text) => void out.push(text),
  stderr: (text) => void out.push(text),
  env: {},
  cwd: project,
  isTTY: false,
});

describe('cadre --help', () => {
  it.each(['run', 'chat', 'serve', 'worker', 'validate', 'token', 'init', 'completion'])(
    '%s --help ends with examples and the environment variables it reads',
    async (command) => {
      const out: string[] = [];
      expect(await runCli([command, '--help'], captured(out))).toBe(0);
      const help = out.join('');
      expect(help).toContain(`Examples:\n  $ cadre ${command}`);
      if (!['init', 'completion'].includes(command)) expect(help).toContain('Environment:');
    },
  );

  it('names the variables a command reads: run the model keys and policy, serve the database', async () => {
    const run: string[] = [];
    await runCli(['run', '--help'], captured(run));
    expect(run.join('')).toMatch(/CADRE_MODEL.*GEMINI_API_KEY.*OPENAI_API_KEY/);
    expect(run.join('')).toContain('CADRE_POLICY');
    const serve: string[] = [];
    await runCli(['serve', '--help'], captured(serve));
    expect(serve.join('')).toContain('CADRE_DATABASE_URL');
    expect(serve.join('')).toContain('CADRE_RATE_LIMIT');
  });
});

describe('cadre completion', () => {
  it('prints a bash script that completes commands, subcommands and flags', async () => {
    const out: string[] = [];
    expect(await runCli(['completion', 'bash'], captured(out))).toBe(0);
    const script = join(project, 'cadre.bash');
    await writeFile(script, out.join(''));
    const complete = (words: string[]) =>
      promisify(execFile)('bash', [
        '-c',
        `source ${script}; cadre() { :; }; COMP_WORDS=(${words.join(' ')}); COMP_CWORD=${words.length - 1}; _cadre; echo "\${COMPREPLY[@]}"`,
      ]).then(({ stdout }) => stdout.trim().split(' '));
    expect(await complete(['cadre', 'to'])).toEqual(['tools', 'token']);
    expect(await complete(['cadre', 'token', 'cr'])).toEqual(['create']);
    expect(await complete(['cadre', 'run', '--mo'])).toEqual(['--model']);
  });

  it.each(['zsh', 'fish'])('prints a %s script', async (shell) => {
    const out: string[] = [];
    expect(await runCli(['completion', shell], captured(out))).toBe(0);
    expect(out.join('')).toContain(shell === 'zsh' ? '#compdef cadre' : 'complete -c cadre');
    expect(out.join('')).toContain('completion');
  });

  it('an unknown shell is an error naming the ones there are', async () => {
    const out: string[] = [];
    expect(await runCli(['completion', 'tcsh'], captured(out))).toBe(1);
    expect(out.join('')).toContain('unknown shell "tcsh": use bash, zsh, fish');
  });
});
