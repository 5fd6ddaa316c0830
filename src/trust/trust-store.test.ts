import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/cadre-error.js';
import { readTrustStore, updateTrustStore } from './trust-store.js';
import { trustFilePath } from './trust-file-path.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-trust-store-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the trust store', () => {
  it('lives under the config folder, never a name the project gives', () => {
    expect(trustFilePath({ CADRE_TRUST_FILE: '/x/t.json', HOME: '/h' })).toBe('/x/t.json');
    expect(trustFilePath({ XDG_CONFIG_HOME: '/cfg', HOME: '/h' })).toBe('/cfg/cadre/trust.json');
    expect(trustFilePath({ HOME: '/h' })).toBe('/h/.config/cadre/trust.json');
    expect(trustFilePath({})).toBeUndefined();
  });

  it('keeps every entry when many writers update it at once, and leaves no temp file', async () => {
    const file = join(dir, 'nested/trust.json');
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        updateTrustStore(file, (store) => ({
          ...store,
          projects: {
            ...store.projects,
            '/p': {
              files: {
                ...store.projects['/p']?.files,
                [`f${i}`]: { sha256: String(i), trustedAt: '' },
              },
            },
          },
        })),
      ),
    );
    const store = await readTrustStore(file);
    expect(Object.keys(store.projects['/p']?.files ?? {}).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `f${i}`).sort(),
    );
    expect((await readdir(join(dir, 'nested'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 1 });
  });

  it('a file that is not JSON is a setup error naming it', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, '{nope');
    await expect(readTrustStore(file)).rejects.toThrow(ConfigError);
    await expect(readTrustStore(file)).rejects.toThrow(file);
  });
});
