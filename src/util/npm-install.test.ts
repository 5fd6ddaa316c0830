import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmInstall } from './npm-install.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-npm-install-'));
  await mkdir(join(dir, 'prefix/lib/node_modules/cadre'), { recursive: true });
  await mkdir(join(dir, 'project/node_modules/cadre'), { recursive: true });
  await writeFile(join(dir, 'project/package.json'), '{}');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npmInstall', () => {
  it('says -g for a global install, where a package in the project would not be found', () => {
    expect(npmInstall(join(dir, 'prefix/lib/node_modules/cadre'))).toBe('npm install -g');
  });

  it('says npm install in a project or a checkout', () => {
    expect(npmInstall(join(dir, 'project/node_modules/cadre'))).toBe('npm install');
    expect(npmInstall(join(dir, 'checkout'))).toBe('npm install');
    expect(npmInstall(undefined)).toBe('npm install');
  });
});
