import { lstat, mkdir, mkdtemp, readdir, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runWorkspace,
  safeFolderName,
  workspacePathFor,
  type WorkspacePlan,
} from './run-workspace.js';

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'cadre-run-ws-')));
});
afterAll(() => rm(base, { recursive: true, force: true }));

const perUser = (scope: 'user' | 'thread'): Extract<WorkspacePlan, { kind: 'per-user' }> => ({
  kind: 'per-user',
  base,
  scope,
});

describe('safeFolderName', () => {
  it('gives ids that differ only in case or by path tricks folders of their own', () => {
    const names = ['ann', 'Ann', 'ANN', '../ann', 'ann/..', '.', '..', '', 'a\0b', 'ann '].map(
      safeFolderName,
    );
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9-]{32,57}$/);
  });

  it('is the same for the same id (a restarted server or another worker finds the folder)', () => {
    expect(safeFolderName('bob@example.com')).toBe(safeFolderName('bob@example.com'));
    expect(safeFolderName('bob@example.com')).toMatch(/^bob-example-com-[0-9a-f]{32}$/);
  });
});

describe('runWorkspace', () => {
  it('makes the user folder 0700 with its .cadre/ on first use, per user or per thread', async () => {
    const ann = await runWorkspace(perUser('user'), { userId: 'ann', threadId: 't1' });
    expect(ann).toBe(path.join(base, safeFolderName('ann')));
    expect((await lstat(ann)).mode & 0o777).toBe(0o700);
    expect((await lstat(path.join(ann, '.cadre'))).isDirectory()).toBe(true);
    const thread = await runWorkspace(perUser('thread'), { userId: 'ann', threadId: 't1' });
    expect(thread).toBe(path.join(ann, safeFolderName('t1')));
    expect(await runWorkspace(perUser('user'), { userId: 'ann', threadId: 't2' })).toBe(ann);
  });

  it("refuses a symlink planted where a user's workspace belongs", async () => {
    const bob = workspacePathFor(perUser('user'), { userId: 'bob', threadId: 't' });
    const ann = await runWorkspace(perUser('user'), { userId: 'ann', threadId: 't' });
    await symlink(ann, bob);
    await expect(runWorkspace(perUser('user'), { userId: 'bob', threadId: 't' })).rejects.toThrow(
      /not a plain folder/,
    );
    const carolThread = workspacePathFor(perUser('thread'), { userId: 'carol', threadId: 'x' });
    await mkdir(path.dirname(carolThread), { recursive: true });
    await symlink(ann, carolThread);
    await expect(
      runWorkspace(perUser('thread'), { userId: 'carol', threadId: 'x' }),
    ).rejects.toThrow(/not a plain folder/);
    // Refused before anything is made through the link: nothing lands in the folder it names.
    const elsewhere = await mkdtemp(path.join(base, 'elsewhere-'));
    const dave = workspacePathFor(perUser('user'), { userId: 'dave', threadId: 't' });
    await symlink(elsewhere, dave);
    await expect(runWorkspace(perUser('user'), { userId: 'dave', threadId: 't' })).rejects.toThrow(
      /not a plain folder/,
    );
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('gives every run the one folder of a shared plan', async () => {
    const plan: WorkspacePlan = { kind: 'shared', folder: base };
    expect(await runWorkspace(plan, { userId: 'ann', threadId: 't' })).toBe(base);
  });
});
