import { spawn, spawnSync } from 'node:child_process';
import { access, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/src/cli/main.js');
// util-linux `script` gives the CLI a real pseudo-terminal: what it prints is what a person sees.
const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

const DISGUISED_COMMAND = 'touch X #\r\x1b[2KAllow Run: ls -la';
const DISGUISED_PATH = 'notes\u202etxt.sh';

let workspace: string;
// The model file lives outside the workspace, where agent discovery does not read it.
let scripts: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'cadre-disguise-'));
  scripts = await mkdtemp(join(tmpdir(), 'cadre-disguise-model-'));
  await writeFile(
    join(workspace, 'worker.yaml'),
    'name: worker\ndescription: Runs things\npromptConfig:\n  systemPrompt: Do it.\ntoolConfig:\n  tools: [shell, write_file]\n',
  );
  const turns = [
    { parts: [{ functionCall: { name: 'shell', args: { command: DISGUISED_COMMAND } } }] },
    {
      parts: [
        { functionCall: { name: 'write_file', args: { path: DISGUISED_PATH, content: 'hi' } } },
      ],
    },
    { parts: [{ text: 'Both were refused.' }] },
  ];
  await writeFile(join(scripts, 'turns.json'), JSON.stringify(turns));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(scripts, { recursive: true, force: true });
});

/**
 * Runs the CLI in a pty; answers "n" to each approval, nothing to "Why not?",
 * and (chat) "go", then "/quit", at the `you>` prompt.
 */
function runInTerminal(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const model = `scripted:${join(scripts, 'turns.json')}`;
  const command = [process.execPath, cli, ...args, '--model', model]
    .map((word) => `'${word}'`)
    .join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    cwd: workspace,
    env: {
      PATH: process.env.PATH,
      HOME: `${workspace}-home`,
      NO_COLOR: '1',
      CADRE_LOG_LEVEL: 'silent',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const answered = { allow: 0, why: 0, you: 0 };
  const count = (text: string): number => output.split(text).length - 1;
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`no exit; the terminal showed: ${JSON.stringify(output)}`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      // Answers once each prompt is on screen (the event, not a timer).
      for (; answered.allow < count('in this run: '); answered.allow += 1) child.stdin.write('n\r');
      for (; answered.why < count('Why not?'); answered.why += 1) child.stdin.write('\r');
      for (; answered.you < count('you> '); answered.you += 1)
        child.stdin.write(answered.you === 0 ? 'go\r' : '/quit\r');
    });
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.end();
      done({ code, output });
    });
  });
}

describe.skipIf(!hasScript)(
  'a disguised call on a real terminal (pty via script, scripted model file)',
  () => {
    let shown: { code: number | null; output: string };
    beforeAll(async () => {
      shown = await runInTerminal(['run', 'worker.yaml', 'go', '--workspace', workspace]);
    }, 70_000);

    it('shows the shell command with its carriage return and erase-line escape escaped, and "n" refuses it', async () => {
      expect(shown.output).toContain(
        'Allow Run: touch X #\\r\\x1b[2KAllow Run: ls -la? [y]es / [n]o / [a]lways for shell',
      );
      // The argument's own escape sequence never reaches the terminal as bytes.
      expect(shown.output).not.toContain('\x1b[2K');
      expect(shown.output).not.toContain('#\r');
      await expect(access(join(workspace, 'X'))).rejects.toThrow();
    });

    it('shows a write_file path reversed by a bidi override escaped, and "n" refuses it', async () => {
      expect(shown.output).toContain('Allow Write 2 bytes to notes\\u202etxt.sh?');
      expect(shown.output).not.toContain('\u202e');
      expect(await readdir(workspace)).not.toContain(DISGUISED_PATH);
      expect(shown.code).toBe(0);
      expect(shown.output).not.toContain('warning');
    });

    it('cadre chat asks the same way: escaped on screen, refused with "n"', async () => {
      const chat = await runInTerminal(['chat', 'worker.yaml']);
      expect(chat.code).toBe(0);
      expect(chat.output).toContain('Allow Run: touch X #\\r\\x1b[2KAllow Run: ls -la?');
      expect(chat.output).toContain('Allow Write 2 bytes to notes\\u202etxt.sh?');
      expect(chat.output).toContain('worker> Both were refused.');
      expect(chat.output).not.toContain('\x1b[2K');
      expect(chat.output).not.toContain('\u202e');
      expect(await readdir(workspace)).not.toContain('X');
    }, 70_000);
  },
);
