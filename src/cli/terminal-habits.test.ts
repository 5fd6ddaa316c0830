import { access, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTmux, quote, tmuxServer } from '../testing/tmux-terminal.js';

/*
 * The habits people bring from Claude Code and Gemini CLI, in a real
 * terminal (tmux) against the built CLI: `cadre -p`, a prompt on stdin,
 * Ctrl-C at an approval question, Up arrow in `cadre chat`. Models are scripted.
 */

const cliMain = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '../..'),
  'dist/src/cli/main.js',
);
const tmuxMissing = !(await hasTmux());
if (tmuxMissing && process.env.CADRE_REQUIRE_TMUX)
  throw new Error('tmux is not installed; the terminal tests need it (apt-get install tmux)');

let root: string;
let project: string;
let bare: string;
let home: string;
let server: ReturnType<typeof tmuxServer>;

const WRITER = `name: writer
description: Writes files when asked.
promptConfig:
  systemPrompt: Write what you are asked to.
toolConfig:
  tools: [write_file]
`;

beforeAll(async () => {
  if (tmuxMissing) return;
  root = await realpath(await mkdtemp(join(tmpdir(), 'cadre-tmux-')));
  project = join(root, 'project');
  bare = join(root, 'bare');
  home = join(root, 'home');
  await mkdir(join(project, 'agents'), { recursive: true });
  await mkdir(bare);
  await mkdir(home);
  await writeFile(join(project, 'agents/writer.yaml'), WRITER);
  await writeFile(
    join(project, 'agents/greeter.md'),
    '---\nname: greeter\ndescription: Says hello.\n---\nGreet the user.\n',
  );
  const script = (file: string, turns: unknown[]) =>
    Promise.all([project, bare].map((dir) => writeFile(join(dir, file), JSON.stringify(turns))));
  await script('hello.json', [{ parts: [{ text: 'Hello from the script.' }] }]);
  await script('stdin.json', [
    {
      parts: [{ text: 'No prompt seen.' }],
      branches: [
        { when: { promptIncludes: 'text from stdin' }, parts: [{ text: 'Read it from stdin.' }] },
      ],
    },
  ]);
  await script('write.json', [
    { parts: [{ functionCall: { name: 'write_file', args: { path: 'out.txt', content: 'x' } } }] },
    { parts: [{ text: 'MODEL CALLED AGAIN' }] },
  ]);
  server = tmuxServer(join(root, 'tmux.sock'), root);
});
afterAll(async () => {
  if (tmuxMissing) return;
  await server.killServer();
  await rm(root, { recursive: true, force: true });
});

/** `cadre ARGS` as a shell command, with a home and state folder of the test's own. */
const cadre = (args: string[], env: Record<string, string> = {}): string =>
  [
    'env',
    ...Object.entries({
      HOME: home,
      XDG_STATE_HOME: join(home, 'state'),
      NO_COLOR: '1',
      ...env,
    }).map(([key, value]) => quote(`${key}=${value}`)),
    quote(process.execPath),
    quote(cliMain),
    ...args.map(quote),
  ].join(' ');

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe.skipIf(tmuxMissing)('in a terminal (tmux, scripted models)', () => {
  it('cadre -p runs the built-in assistant, or ACTIVE_AGENT_PATH when it is set', async () => {
    const plain = await server.start(
      cadre(['-p', 'hello there', '--model', 'scripted:hello.json']),
      bare,
    );
    expect(await plain.exitCode()).toBe(0);
    const shown = await plain.screen();
    expect(shown).toContain('Running assistant');
    expect(shown).toContain('Hello from the script.');

    const active = await server.start(
      cadre(['-p', 'hello there', '--model', 'scripted:hello.json'], {
        ACTIVE_AGENT_PATH: 'agents/greeter.md',
      }),
      project,
    );
    expect(await active.exitCode()).toBe(0);
    expect(await active.screen()).toContain('Running greeter');
  });

  it('a prompt piped on stdin is the prompt when none is given', async () => {
    const piped = await server.start(
      `printf 'some text from stdin' | ${cadre(['run', 'greeter', '--model', 'scripted:stdin.json'])}`,
      project,
    );
    expect(await piped.exitCode()).toBe(0);
    expect(await piped.screen()).toContain('Read it from stdin.');
  });

  it('Ctrl-C at an approval question cancels the run: the tool is not run, the model not asked again', async () => {
    const session = await server.start(
      cadre(['run', 'writer', 'write it', '--model', 'scripted:write.json']),
      project,
    );
    await session.waitFor(/Allow .*\? \[y\]es/);
    await session.keys('C-c');
    expect(await session.exitCode()).toBe(130);
    const shown = await session.screen();
    expect(shown).toContain('ABORTED');
    expect(shown).not.toContain('MODEL CALLED AGAIN');
    // Nothing was written after the question on its line.
    const question = shown.split('\n').find((line) => line.includes('[y]es'));
    expect(question).toMatch(/in this run:$/);
    expect(await exists(join(project, 'out.txt'))).toBe(false);
  });

  it('cadre chat: Ctrl-C at an approval cancels the turn only, and Up brings back the last line from the history file', async () => {
    const chat = await server.start(
      cadre(['chat', 'writer', '--model', 'scripted:write.json']),
      project,
    );
    await chat.waitFor(/you>$/m);
    await chat.keys('write it please', 'Enter');
    await chat.waitFor(/\[y\]es/);
    await chat.keys('C-c');
    await chat.waitFor(/Cancelled\.[\s\S]*\nyou>$/);
    expect(await exists(join(project, 'out.txt'))).toBe(false);
    await chat.keys('C-c');
    expect(await chat.exitCode()).toBe(0);
    expect(await chat.screen()).not.toContain('MODEL CALLED AGAIN');
    const historyFile = join(home, 'state/cadre/chat-history');
    expect(await readFile(historyFile, 'utf8')).toBe('write it please\n');

    // A new chat: Up shows the line typed in the last one.
    const again = await server.start(
      cadre(['chat', 'greeter', '--model', 'scripted:hello.json']),
      project,
    );
    await again.waitFor(/you>$/m);
    await again.keys('Up');
    await again.waitFor(/you> write it please$/m);
    await again.keys('C-u', 'C-c');
    expect(await again.exitCode()).toBe(0);
  });
});
