import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in Cadre's own package.json, so `cadre --version` follows a
 * release. This file runs from src/cli or dist/src/cli (or an installed
 * package's dist), so the nearest package.json up the tree is Cadre's.
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const version = versionIn(join(dir, 'package.json'));
    if (version !== undefined) return version;
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

function versionIn(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const { version } = JSON.parse(text) as { version?: unknown };
  return typeof version === 'string' ? version : undefined;
}
