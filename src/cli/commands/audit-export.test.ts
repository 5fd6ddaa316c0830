import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditHeadMac } from '../../store/audit-chain.js';
import type { KyselyStore } from '../../store/kysely-store.js';
import { openKyselyStore } from '../../store/open-store.js';
import { runCliCaptured } from '../../testing/run-cli-captured.js';

const KEY = Buffer.alloc(32, 9);
const env = { CADRE_AUDIT_KEY: KEY.toString('base64') };
let dir: string;
let db: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-audit-export-'));
  db = join(dir, 'cadre.db');
});

async function withStore(
  auditKey: Buffer | undefined,
  work: (store: KyselyStore) => Promise<void>,
) {
  const store = await openKyselyStore({ url: db, auditKey });
  try {
    await work(store);
  } finally {
    await store.close();
  }
}

/** `null`: as a store opened without a key (written before the key existed). */
const append = (count: number, auditKey: Buffer | null = KEY) =>
  withStore(auditKey ?? undefined, async (store) => {
    for (let i = 0; i < count; i++) await store.audit.append({ message: `m${i}` });
  });

const cli = (...args: string[]) =>
  runCliCaptured(['audit', ...args, '--db', db], { cwd: dir, env });

describe('cadre audit export and verify --anchor (temp SQLite store)', () => {
  it('exports NDJSON, entries then the head, which later verifies as an anchor', async () => {
    await append(3);
    const exported = await cli('export', '--out', 'anchor.ndjson');
    expect(exported).toMatchObject({ code: 0, stdout: '' });
    const lines = (await readFile(join(dir, 'anchor.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.type, line.seq])).toEqual([
      ['entry', 1],
      ['entry', 2],
      ['entry', 3],
      ['head', 3],
    ]);
    expect(lines[3]).toMatchObject({ hash: lines[2]?.hash, mac: expect.any(String), keyedFrom: 1 });
    expect((await cli('export')).stdout.trim().split('\n')).toHaveLength(4);

    await append(2);
    const later = await cli('verify', '--anchor', 'anchor.ndjson');
    expect(later.code).toBe(0);
    expect(later.stdout).toMatch(/intact: 5 entries[\s\S]*anchored head \(seq 3\) is still/);
  });

  it('catches a truncation below the anchor by someone holding the key', async () => {
    await append(3);
    await cli('export', '--out', 'anchor.ndjson');
    // With the key stolen, the head can be re-MACed after cutting the chain back to 2.
    await withStore(KEY, async (store) => {
      const [second] = await store.audit.list({ after: 1, limit: 1 });
      const head = { seq: 2, hash: second!.hash, keyedFrom: 1 };
      await sql`delete from audit_log where seq = ${3}`.execute(store.db);
      await sql`update audit_head set seq = 2, hash = ${head.hash}, mac = ${auditHeadMac(KEY, head)}`.execute(
        store.db,
      );
    });
    expect((await cli('verify')).code).toBe(0);
    const anchored = await cli('verify', '--anchor', 'anchor.ndjson');
    expect(anchored.code).toBe(1);
    expect(anchored.stdout).toMatch(/anchored entry 3 is gone: the chain was truncated/);
  });

  it('catches a rewrite below the anchor by someone holding the key', async () => {
    await append(2);
    await cli('export', '--out', 'anchor.ndjson');
    // Start over with the stolen key: a chain as valid as the first, but another history.
    await withStore(KEY, async (store) => {
      await sql`delete from audit_log`.execute(store.db);
      await sql`update audit_head set seq = 0, hash = ${'0'.repeat(64)}, mac = null, keyed_from = null`.execute(
        store.db,
      );
    });
    await append(3);
    expect((await cli('verify')).code).toBe(0);
    const anchored = await cli('verify', '--anchor', 'anchor.ndjson');
    expect(anchored.code).toBe(1);
    expect(anchored.stdout).toMatch(/entry 2 differs from the anchor: the chain was rewritten/);
  });

  it('refuses a file that is not an export, and to export a broken chain', async () => {
    await append(2);
    const bad = await cli('verify', '--anchor', 'missing.ndjson');
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toMatch(/missing.ndjson is not a readable audit export/);
    await withStore(KEY, async (store) => {
      await sql`update audit_log set message = 'edited' where seq = 1`.execute(store.db);
    });
    const refused = await cli('export');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/broken at seq 1 \(mac_mismatch\)/);
  });
});

describe('cadre audit seal (a chain from before the key)', () => {
  it('reports the old chain unkeyed, then keys it from the next entry on', async () => {
    await append(2, null);
    await append(1);
    const before = await cli('verify');
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/unkeyed.*cadre audit seal/);
    const sealed = await cli('seal');
    expect(sealed).toMatchObject({ code: 0, stderr: '' });
    expect(sealed.stdout).toMatch(/keyed from seq 4; entries 1-3/);
    await append(1);
    expect((await cli('verify')).stdout).toMatch(/ok audit chain intact: 4 entries/);
    expect((await cli('seal')).stdout).toMatch(/nothing to seal/);
  });

  it('without a key, verify says so and creates none', async () => {
    await append(1);
    const result = await runCliCaptured(['audit', 'verify', '--db', db], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/no audit key/);
    await expect(readFile(join(dir, '.cadre', 'audit.key'))).rejects.toThrow(/ENOENT/);
  });
});
