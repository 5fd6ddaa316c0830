import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { openKyselyStore } from '../../store/open-store.js';
import { runCliCaptured } from '../../testing/run-cli-captured.js';

const KEY = 'a'.repeat(64);
const env = { CADRE_AUDIT_KEY: KEY };
let dir: string;
let db: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-audit-'));
  db = join(dir, 'cadre.db');
});

describe('cadre audit verify (temp SQLite store)', () => {
  it('reports an intact chain with its size, then the seq an edit behind the store broke', async () => {
    const store = await openKyselyStore({ url: db, auditKey: Buffer.from(KEY, 'hex') });
    try {
      for (let i = 1; i <= 3; i++)
        await store.audit.append({
          toolName: 'gmail_send',
          policyDecision: 'allow',
          message: `m${i}`,
        });
    } finally {
      await store.close();
    }
    const intact = await runCliCaptured(['audit', 'verify', '--db', db], { cwd: dir, env });
    expect(intact).toMatchObject({ code: 0, stderr: '' });
    expect(intact.stdout).toMatch(/ok audit chain intact: 3 entries/);

    const tamper = await openKyselyStore({ url: db });
    try {
      await sql`update audit_log set message = ${'nothing happened'} where seq = ${2}`.execute(
        tamper.db,
      );
    } finally {
      await tamper.close();
    }
    const broken = await runCliCaptured(['audit', 'verify', '--db', db], { cwd: dir, env });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/broken at seq 2 \(mac_mismatch\)/);
  });

  it('verifies an empty log', async () => {
    const empty = await runCliCaptured(['audit', 'verify'], { cwd: dir });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(/0 entries/);
  });
});
