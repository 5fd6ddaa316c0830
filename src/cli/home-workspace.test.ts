import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';
import { homeWorkspaceReason } from './workspace-folder.js';

// Started in the home folder by accident, an agent would have every key and shell setting of the
// person within reach: `cadre run` (and `chat`, through the same check) refuse unless it is named.
let home: string;
beforeAll(async () => {
  home = await realpath(await mkdtemp(path.join(tmpdir(), 'cadre-home-')));
  await writeFile(
    path.join(home, 'hello.yaml'),
    'name: hello\ndescription: Says hello.\ntoolConfig: { tools: [] }\n',
  );
  await writeFile(
    path.join(home, 'turns.json'),
    JSON.stringify({ turns: [{ parts: [{ text: 'hello there' }] }] }),
  );
});
afterAll(() => rm(home, { recursive: true, force: true }));

describe('the home folder is a workspace only when named (scripted model)', () => {
  it('cadre run started in $HOME refuses, before any model call, naming the way out', async () => {
    const result = await runCliCaptured(
      ['run', 'hello.yaml', 'hi', '--model', 'scripted:turns.json'],
      { cwd: home, env: { HOME: home } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`your home folder ${home}`);
    expect(result.stderr).toContain(`--workspace ${home}`);
    expect(result.stdout).not.toContain('hello there');
  });

  it('runs once the home folder is named with --workspace', async () => {
    const result = await runCliCaptured(
      ['run', 'hello.yaml', 'hi', '--model', 'scripted:turns.json', '--workspace', home],
      { cwd: home, env: { HOME: home } },
    );
    expect(result.stderr).not.toContain('your home folder');
    expect(result.stdout, result.stderr).toContain('hello there');
    expect(result.code).toBe(0);
  });

  it('a folder that holds the home folder, or /, is refused; one inside it is fine', () => {
    expect(homeWorkspaceReason('/', '/home/ann')).toMatch(/root folder/);
    expect(homeWorkspaceReason('/home', '/home/ann')).toMatch(/holds your home folder/);
    expect(homeWorkspaceReason('/home/ann', '/home/ann')).toMatch(/your home folder/);
    expect(homeWorkspaceReason('/home/ann/project', '/home/ann')).toBeUndefined();
    expect(homeWorkspaceReason('/home/annex', '/home/ann')).toBeUndefined();
  });
});
