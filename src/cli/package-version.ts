import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

/** The version in Cadre's own package.json, so `cadre --version` follows a release. */
export function packageVersion(): string {
  const root = packageRoot();
  if (root === undefined) return 'unknown';
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof version === 'string' ? version : 'unknown';
}
