import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Cadre's own folder, the one holding its package.json. Code runs from
 * src/…, dist/src/… or an installed package's dist, so the nearest
 * package.json up from this file is Cadre's. Undefined if there is none.
 */
export function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return dir;
}
