import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/cadre-error.js';
import { openStore, parseStoreUrl } from './open-store.js';

describe('parseStoreUrl', () => {
  it.each([
    ['postgres://u:p@db:5432/cadre', { kind: 'postgres', url: 'postgres://u:p@db:5432/cadre' }],
    ['postgresql://db/cadre', { kind: 'postgres', url: 'postgresql://db/cadre' }],
    [':memory:', { kind: 'sqlite', file: ':memory:' }],
    ['sqlite::memory:', { kind: 'sqlite', file: ':memory:' }],
    ['sqlite:/var/data/c.db', { kind: 'sqlite', file: '/var/data/c.db' }],
    ['sqlite:///var/data/c.db', { kind: 'sqlite', file: '/var/data/c.db' }],
    ['file:/var/data/c.db', { kind: 'sqlite', file: '/var/data/c.db' }],
    ['/var/data/c.db', { kind: 'sqlite', file: '/var/data/c.db' }],
  ])('%s', (url, expected) => {
    expect(parseStoreUrl(url)).toEqual(expected);
  });

  it('defaults to .cadre/cadre.db under the working directory', () => {
    expect(parseStoreUrl(undefined)).toEqual({
      kind: 'sqlite',
      file: path.resolve('.cadre', 'cadre.db'),
    });
    expect(parseStoreUrl('  ')).toEqual({
      kind: 'sqlite',
      file: path.resolve('.cadre', 'cadre.db'),
    });
  });

  it('refuses other schemes with a config error that hides the password', () => {
    const attempt = () => parseStoreUrl('mysql://root:hunter2@db/cadre');
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/mysql:\/\/\*\*\*@db\/cadre/);
    expect(attempt).not.toThrow(/hunter2/);
  });
});

describe('openStore default location', () => {
  const cwd = process.cwd();
  let dir: string | undefined;
  afterEach(() => {
    process.chdir(cwd);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates the .cadre folder and the database file in it', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadre-default-'));
    process.chdir(dir);
    const store = await openStore();
    await store.auth.ensureUser('alice');
    await store.close();
    expect(existsSync(path.join(dir, '.cadre', 'cadre.db'))).toBe(true);
  });
});
