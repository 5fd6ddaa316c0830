import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../store/open-store.js';
import { runCliCaptured } from '../../testing/run-cli-captured.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-token-'));
});

describe('cadre token create (temp SQLite store)', () => {
  it('prints a token once that the store resolves to the user, and stores only its hash', async () => {
    const db = join(dir, 'cadre.db');
    const first = await runCliCaptured(['token', 'create', '--user', 'ann', '--db', db], {
      cwd: dir,
    });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/shown once/);
    const token = first.stdout.trim();
    expect(token).toMatch(/^\S{20,}$/);
    const second = await runCliCaptured(['token', 'create', '--user', 'ann', '--db', db], {
      cwd: dir,
    });
    expect(second.stdout.trim()).not.toBe(token);

    const store = await openStore({ url: db });
    try {
      expect((await store.findUserByToken(token))?.name).toBe('ann');
      expect((await store.findUserByToken(second.stdout.trim()))?.name).toBe('ann');
      expect(await store.findUserByToken(`${token}x`)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('uses CADRE_DATABASE_URL, then .cadre/cadre.db under the working folder', async () => {
    const viaEnv = join(dir, 'env.db');
    const a = await runCliCaptured(['token', 'create', '--user', 'bo'], {
      cwd: dir,
      env: { CADRE_DATABASE_URL: viaEnv },
    });
    const b = await runCliCaptured(['token', 'create', '--user', 'cy'], { cwd: dir });
    for (const [url, run, name] of [
      [viaEnv, a, 'bo'],
      [join(dir, '.cadre', 'cadre.db'), b, 'cy'],
    ] as const) {
      const store = await openStore({ url });
      try {
        expect((await store.findUserByToken(run.stdout.trim()))?.name).toBe(name);
      } finally {
        await store.close();
      }
    }
  });

  it('refuses a blank user and an unsupported database URL', async () => {
    const blank = await runCliCaptured(['token', 'create', '--user', '  '], { cwd: dir });
    expect(blank.code).toBe(1);
    const bad = await runCliCaptured(['token', 'create', '--user', 'ann', '--db', 'mysql://x/y'], {
      cwd: dir,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unsupported database URL/);
    expect(bad.stdout).toBe('');
  });
});
