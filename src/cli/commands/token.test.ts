import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { auth, fakeService, startTestServer } from '../../server/http/testing/test-support.js';
import { openKyselyStore, openStore } from '../../store/open-store.js';
import { runCliCaptured } from '../../testing/run-cli-captured.js';
import { sha256Hex } from '../../util/sha256.js';
import { describeStore } from './token.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-token-'));
});

describe('cadre token create (temp SQLite store)', () => {
  it('prints a token once that the store resolves to the user, and stores only its hash', async () => {
    const db = join(dir, 'cadre.db');
    const first = await runCliCaptured(
      ['token', 'create', '--user', 'ann', '--db', db, '--create-db'],
      {
        cwd: dir,
      },
    );
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
      expect((await store.auth.findUserByToken(token))?.name).toBe('ann');
      expect((await store.auth.findUserByToken(second.stdout.trim()))?.name).toBe('ann');
      expect(await store.auth.findUserByToken(`${token}x`)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('uses CADRE_DATABASE_URL, then .cadre/cadre.db under the working folder', async () => {
    const viaEnv = join(dir, 'env.db');
    const a = await runCliCaptured(['token', 'create', '--user', 'bo', '--create-db'], {
      cwd: dir,
      env: { CADRE_DATABASE_URL: viaEnv },
    });
    const b = await runCliCaptured(['token', 'create', '--user', 'cy', '--create-db'], {
      cwd: dir,
    });
    for (const [url, run, name] of [
      [viaEnv, a, 'bo'],
      [join(dir, '.cadre', 'cadre.db'), b, 'cy'],
    ] as const) {
      const store = await openStore({ url });
      try {
        expect((await store.auth.findUserByToken(run.stdout.trim()))?.name).toBe(name);
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

describe('cadre token list / revoke (temp SQLite store)', () => {
  const create = async (db: string, user: string) =>
    (
      await runCliCaptured(['token', 'create', '--user', user, '--db', db, '--create-db'], {
        cwd: dir,
      })
    ).stdout.trim();
  const list = (db: string, ...extra: string[]) =>
    runCliCaptured(['token', 'list', '--db', db, ...extra], { cwd: dir });

  it('lists tokens without their secret, revokes one by prefix, and the server then answers 401', async () => {
    const db = join(dir, 'cadre.db');
    const annToken = await create(db, 'ann');
    const boToken = await create(db, 'bo');
    const annId = sha256Hex(annToken).slice(0, 12);
    const boId = sha256Hex(boToken).slice(0, 12);

    const table = await list(db);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+USER\s+CREATED\s+LAST USED\s+STATUS$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(`^${annId}\\s+ann\\s+\\d{4}-\\d\\d-\\d\\d \\S+Z\\s+-\\s+active$`),
      ),
      expect.stringMatching(new RegExp(`^${boId}\\s+bo\\s+.*active$`)),
    ]);

    const json = await list(db, '--json', '--user', 'bo');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        id: expect.any(String),
        hashPrefix: boId,
        user: 'bo',
        createdAt: expect.stringMatching(/^\d{4}-/),
        lastUsedAt: null,
        revoked: false,
        revokedAt: null,
      },
    ]);
    for (const run of [table, json])
      for (const secret of [annToken, boToken, sha256Hex(annToken), sha256Hex(boToken)])
        expect(run.stdout + run.stderr).not.toContain(secret);

    // The server asks the store on every request (no token cache), as it would 5 s later.
    const store = await openStore({ url: db });
    const server = await startTestServer(fakeService(), {
      store,
      tokenCache: { ttlMs: 0, max: 0 },
    });
    try {
      const pending = (token: string) =>
        fetch(`${server.url}/api/agent/approvals/pending`, { headers: auth(token) });
      expect((await pending(annToken)).status).toBe(200);

      const revoked = await runCliCaptured(['token', 'revoke', annId.slice(0, 8), '--db', db], {
        cwd: dir,
      });
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toBe(`Revoked token ${annId} (ann).\n`);
      expect(revoked.stderr).toMatch(/up to 5 s \(its token cache\)/);

      expect((await pending(annToken)).status).toBe(401);
      expect((await pending(boToken)).status).toBe(200);
    } finally {
      await server.close();
      await store.close();
    }

    const after = JSON.parse((await list(db, '--json')).stdout) as Array<Record<string, unknown>>;
    expect(after.map((t) => [t.user, t.revoked])).toEqual([
      ['ann', true],
      ['bo', false],
    ]);
    expect(after[0]?.revokedAt).toMatch(/^\d{4}-/);
    expect(after[1]?.lastUsedAt).toMatch(/^\d{4}-/);
    expect((await list(db)).stdout).toMatch(new RegExp(`^${annId}\\s+ann\\s.*revoked$`, 'm'));

    const again = await runCliCaptured(['token', 'revoke', annId, '--db', db], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already revoked at \d{4}-/);
  });

  it('names an unknown id, a too-short prefix and an ambiguous one as errors (exit 1)', async () => {
    const db = join(dir, 'cadre.db');
    await create(db, 'ann');
    await create(db, 'bo');
    const revoke = (wanted: string) =>
      runCliCaptured(['token', 'revoke', wanted, '--db', db], { cwd: dir });

    const unknown = await revoke('no-such-token');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/no token has the id or prefix 'no-such-token'/);
    const short = await revoke('abc');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/too short: give at least 6 characters/);

    // Random hashes almost never share 6 digits: make two that do.
    const store = await openKyselyStore({ url: db });
    try {
      const [a, b] = await store.auth.listTokens();
      if (!a || !b) throw new Error('expected two tokens');
      for (const [id, hash] of [
        [a.id, `abcdef1${'0'.repeat(57)}`],
        [b.id, `abcdef2${'0'.repeat(57)}`],
      ] as const)
        await store.db
          .updateTable('api_tokens')
          .set({ token_hash: hash })
          .where('id', '=', id)
          .execute();
    } finally {
      await store.close();
    }
    const ambiguous = await revoke('abcdef');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(
      /'abcdef' matches more than one token: abcdef100000 \(ann\), abcdef200000 \(bo\); give more characters/,
    );
    expect((await revoke('abcdef2')).code).toBe(0);
  });

  it('says when there is nothing to list', async () => {
    const db = join(dir, 'cadre.db');
    await (await openStore({ url: db })).close();
    const empty = await list(db);
    expect(empty).toMatchObject({ code: 0, stdout: '' });
    expect(empty.stderr).toMatch(/No tokens yet/);
    await create(db, 'ann');
    const nobody = await list(db, '--user', 'cy');
    expect(nobody.stderr).toMatch(/No tokens for cy/);
    expect(JSON.parse((await list(db, '--json', '--user', 'cy')).stdout)).toEqual([]);
  });
});

describe('cadre token: which database (temp SQLite store)', () => {
  it('refuses to create a database nobody asked for, and names it (exit 2)', async () => {
    const run = await runCliCaptured(['token', 'create', '--user', 'ann'], { cwd: dir });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(`no database at ${join(dir, '.cadre', 'cadre.db')}`);
    expect(run.stderr).toMatch(/start `cadre serve` in this folder first.*--db.*--create-db/);
    expect(existsSync(join(dir, '.cadre', 'cadre.db'))).toBe(false);
    for (const argv of [
      ['token', 'list'],
      ['token', 'revoke', 'abcdef12'],
    ]) {
      const other = await runCliCaptured(argv, { cwd: dir });
      expect(other.code).toBe(2);
      expect(other.stderr).toContain('no database at');
    }
    expect(existsSync(join(dir, '.cadre', 'cadre.db'))).toBe(false);
  });

  it('writes into the database that exists (as `cadre serve` made it) and says which', async () => {
    const db = join(dir, '.cadre', 'cadre.db');
    await mkdir(join(dir, '.cadre'));
    await (await openStore({ url: db })).close();
    const run = await runCliCaptured(['token', 'create', '--user', 'ann'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Token for ann in ${db}:`);
  });

  it('never prints a PostgreSQL password', () => {
    expect(describeStore('postgres://cadre:secret@127.0.0.1:5432/cadre')).toBe(
      'postgres://cadre:***@127.0.0.1:5432/cadre',
    );
  });
});
