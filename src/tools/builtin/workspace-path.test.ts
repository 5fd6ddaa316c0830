import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolExecutionError } from '../../errors/index.js';
import { makeWorkspace, type TestWorkspace } from './testing/test-support.js';
import {
  isInsideWorkspace,
  isProtectedPath,
  resolveInWorkspace,
  toWorkspaceRelative,
} from './workspace-path.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await ws.write({ 'src/a.ts': 'a', 'notes.md': 'n' });
  await writeFile(path.join(ws.outside, 'secret.txt'), 'TOPSECRET');
});
afterEach(() => ws.cleanup());

describe('resolveInWorkspace', () => {
  it('resolves relative paths against the workspace', async () => {
    expect(await resolveInWorkspace(ws.root, 'src/a.ts')).toBe(path.join(ws.root, 'src/a.ts'));
    expect(await resolveInWorkspace(ws.root, '.')).toBe(ws.root);
    expect(await resolveInWorkspace(ws.root, 'src/../notes.md')).toBe(
      path.join(ws.root, 'notes.md'),
    );
  });

  it('accepts absolute paths inside the workspace', async () => {
    const abs = path.join(ws.root, 'src/a.ts');
    expect(await resolveInWorkspace(ws.root, abs)).toBe(abs);
  });

  it('follows symlinks that stay inside and returns the real path', async () => {
    await symlink(path.join(ws.root, 'src'), path.join(ws.root, 'alias'));
    expect(await resolveInWorkspace(ws.root, 'alias/a.ts')).toBe(path.join(ws.root, 'src/a.ts'));
  });

  it('resolves paths yet to be created under their real parent', async () => {
    await symlink(path.join(ws.root, 'src'), path.join(ws.root, 'alias'));
    expect(await resolveInWorkspace(ws.root, 'alias/new/deep.ts')).toBe(
      path.join(ws.root, 'src/new/deep.ts'),
    );
  });

  it('fails on a missing path when mustExist is set, naming it relatively', async () => {
    await expect(resolveInWorkspace(ws.root, 'nope.txt', { mustExist: true })).rejects.toThrow(
      new ToolExecutionError('No such file or directory: nope.txt'),
    );
  });

  it.each([
    ['a .. escape', '../outside/secret.txt'],
    ['a deep .. escape', 'src/../../outside/secret.txt'],
    ['an absolute path elsewhere', '/etc/passwd'],
    ['a missing path outside', '../outside/new.txt'],
  ])('refuses %s', async (_label, userPath) => {
    await expect(resolveInWorkspace(ws.root, userPath)).rejects.toThrow(
      new ToolExecutionError(
        `Path "${userPath}" is outside the workspace root; file tools only work inside the workspace.`,
      ),
    );
  });

  it('refuses symlinks leading outside, at the last component or a parent', async () => {
    await symlink(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'leaf'));
    await symlink(ws.outside, path.join(ws.root, 'dir'));
    for (const userPath of ['leaf', 'dir', 'dir/secret.txt', 'dir/new.txt', 'dir/x/y/new.txt']) {
      await expect(resolveInWorkspace(ws.root, userPath)).rejects.toThrow(
        /outside the workspace root \(through a symbolic link\)/,
      );
    }
  });

  it('refuses a dangling symlink a write would follow', async () => {
    await symlink(path.join(ws.outside, 'planted.txt'), path.join(ws.root, 'dangling'));
    await expect(resolveInWorkspace(ws.root, 'dangling')).rejects.toThrow(/symbolic link/);
    await expect(resolveInWorkspace(ws.root, 'dangling', { mustExist: true })).rejects.toThrow(
      ToolExecutionError,
    );
  });

  it('refuses NUL characters', async () => {
    await expect(resolveInWorkspace(ws.root, 'a\0b')).rejects.toThrow(/NUL/);
  });
});

describe('isProtectedPath', () => {
  const scope = {
    workspace: '/srv/app/.cadre/workspaces/ann',
    protectedPaths: ['/srv/app', '/srv/app/.cadre/workspaces', '/srv/app/.cadre/workspaces/ann/db'],
  };

  it("masks a server's whole folder around the workspace, not the workspace itself", () => {
    expect(isProtectedPath(scope, '/srv/app/.cadre/workspaces/ann/notes.txt')).toBe(false);
    expect(isProtectedPath(scope, '/srv/app/.cadre/workspaces/ann')).toBe(false);
  });

  it("still covers the workspace's .cadre/ and protected paths inside the workspace", () => {
    expect(isProtectedPath(scope, '/srv/app/.cadre/workspaces/ann/.cadre/runs')).toBe(true);
    expect(isProtectedPath(scope, '/srv/app/.cadre/workspaces/ann/db/x')).toBe(true);
  });

  it('refuses whatever of the protected folders lies outside the workspace', async () => {
    const scoped = { workspace: ws.root, protectedPaths: [path.dirname(ws.root)] };
    await expect(resolveInWorkspace(scoped, 'notes.md')).resolves.toBe(
      path.join(ws.root, 'notes.md'),
    );
    await expect(resolveInWorkspace(scoped, path.join(ws.outside, 'secret.txt'))).rejects.toThrow(
      /outside the workspace/,
    );
  });
});

describe('isInsideWorkspace', () => {
  it.each([
    ['/w', '/w', true],
    ['/w', '/w/a/b', true],
    ['/w', '/w/..foo', true],
    ['/w', '/w2', false],
    ['/w', '/', false],
    ['/w', '/w/../x', false],
  ])('%s contains %s: %s', (root, candidate, expected) => {
    expect(isInsideWorkspace(root, candidate)).toBe(expected);
  });
});

describe('toWorkspaceRelative', () => {
  it('uses . for the root and forward slashes below it', async () => {
    await mkdir(path.join(ws.root, 'x'));
    expect(toWorkspaceRelative(ws.root, ws.root)).toBe('.');
    expect(toWorkspaceRelative(ws.root, path.join(ws.root, 'x', 'y.ts'))).toBe('x/y.ts');
  });
});
