import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * How to install a package Cadre can find. Node looks for it up from Cadre's
 * own folder, never in the project: a Cadre installed globally
 * (`PREFIX/lib/node_modules/cadre`, whose `node_modules` has no package.json
 * beside it, unlike a project's) needs `npm install -g`; a project's or a
 * checkout's Cadre, `npm install`.
 */
export function npmInstall(root: string | undefined = packageRoot()): string {
  if (root === undefined) return 'npm install';
  const modules = dirname(root);
  if (basename(modules) !== 'node_modules') return 'npm install';
  return existsSync(join(dirname(modules), 'package.json')) ? 'npm install' : 'npm install -g';
}
