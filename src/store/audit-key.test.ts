import { chmod, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_AUDIT_KEY_PATH, loadAuditKey } from './audit-key.js';

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'cadre-audit-key-'));
});

describe('loadAuditKey', () => {
  it('creates .cadre/audit.key on first use with mode 0600, then reuses it', async () => {
    const first = await loadAuditKey({ env: {}, cwd });
    expect(first).toHaveLength(32);
    const file = join(cwd, DEFAULT_AUDIT_KEY_PATH);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first?.toString('hex'));
    expect(await loadAuditKey({ env: {}, cwd })).toEqual(first);
  });

  it('processes starting together all end up with the one key', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadAuditKey({ env: {}, cwd })));
    expect(new Set(keys.map((key) => key?.toString('hex'))).size).toBe(1);
  });

  it('takes CADRE_AUDIT_KEY as hex or base64 and then touches no file', async () => {
    const bytes = Buffer.alloc(32, 7);
    for (const text of [bytes.toString('hex'), bytes.toString('base64')])
      expect(await loadAuditKey({ env: { CADRE_AUDIT_KEY: text }, cwd })).toEqual(bytes);
    await expect(stat(join(cwd, DEFAULT_AUDIT_KEY_PATH))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a short or malformed key without quoting it', async () => {
    for (const text of ['ab'.repeat(31), 'not a key at all!']) {
      const load = loadAuditKey({ env: { CADRE_AUDIT_KEY: text }, cwd });
      await expect(load).rejects.toThrow(/at least 32 bytes/);
      await expect(load).rejects.not.toThrow(text);
    }
  });

  it('honours a configured path, and creates nothing when asked not to', async () => {
    const file = join(cwd, 'keys', 'audit.key');
    expect(await loadAuditKey({ env: { CADRE_AUDIT_KEY_FILE: file }, cwd, create: false })).toBe(
      undefined,
    );
    const key = await loadAuditKey({ env: {}, cwd, file });
    expect(await loadAuditKey({ env: { CADRE_AUDIT_KEY_FILE: file }, cwd })).toEqual(key);
  });

  it.skipIf(process.platform === 'win32')('refuses a key file others can read', async () => {
    const file = join(cwd, 'audit.key');
    await writeFile(file, 'ab'.repeat(32));
    await chmod(file, 0o644);
    await expect(loadAuditKey({ env: {}, cwd, file })).rejects.toThrow(/chmod 600/);
  });
});
