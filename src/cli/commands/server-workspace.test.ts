import { mkdir, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverWorkspaces } from './server-workspace.js';

let root: string;
let server: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'cadre-server-ws-')));
  server = path.join(root, 'server');
  await mkdir(server);
});
afterAll(() => rm(root, { recursive: true, force: true }));

const io = (cwd: string, env: NodeJS.ProcessEnv = {}) => ({ cwd, env });

describe('serverWorkspaces', () => {
  it("makes .cadre/workspaces (0700) and masks the server's whole folder and the database", async () => {
    const found = await serverWorkspaces(
      io(server, { CADRE_AUDIT_KEY_FILE: '/etc/cadre/audit.key' }),
      undefined,
      'user',
      '/var/lib/cadre/cadre.db',
    );
    const base = path.join(server, '.cadre', 'workspaces');
    expect(found.plan).toEqual({ kind: 'per-user', base, scope: 'user' });
    expect((await stat(base)).mode & 0o777).toBe(0o700);
    expect(found.protectedPaths).toEqual(
      expect.arrayContaining([
        server,
        base,
        '/var/lib/cadre/cadre.db',
        '/var/lib/cadre/cadre.db-wal',
        '/etc/cadre/audit.key',
      ]),
    );
    expect(found.description).toBe(
      `Workspace per user under ${base} (made on first use; tools see only their own, never ${server})`,
    );
  });

  it('takes --workspace DIR as the base, masked too when it lies beside the server', async () => {
    const beside = path.join(root, 'workspaces');
    await mkdir(beside);
    const found = await serverWorkspaces(io(server), '../workspaces', 'thread', 'postgres://x/y');
    expect(found.plan).toEqual({ kind: 'per-user', base: beside, scope: 'thread' });
    expect(found.protectedPaths).toEqual([server, beside]);
    expect(found.description).toMatch(/^Workspace per thread under /);
  });

  it("refuses a base that does not exist or holds the server's folder, and the root folder", async () => {
    await expect(serverWorkspaces(io(server), 'missing', 'user', 'db')).rejects.toThrow(
      /does not exist/,
    );
    await expect(serverWorkspaces(io(server), '.', 'user', 'db')).rejects.toThrow(
      /holds the server's own folder/,
    );
    await expect(serverWorkspaces(io(server), root, 'user', 'db')).rejects.toThrow(
      /holds the server's own folder/,
    );
    await expect(serverWorkspaces(io('/'), root, 'user', 'db')).rejects.toThrow(/root folder/);
  });
});
