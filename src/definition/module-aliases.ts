import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../util/package-root.js';

/**
 * What an agent module's `import … from 'cadre'` and `'zod'` resolve to when
 * its own folder cannot resolve them (a project with no node_modules, run by
 * a global `cadre`): this Cadre and the zod it depends on. A project that
 * installed them keeps its own.
 */
export function moduleAliases(file: string): Record<string, string> {
  const from = createRequire(resolve(dirname(file), 'agent.js'));
  const aliases: Record<string, string> = {};
  if (!resolves(from, 'cadre')) aliases.cadre = ownEntry();
  if (!resolves(from, 'zod')) {
    const zod = ownZod();
    if (zod) aliases.zod = zod;
  }
  return aliases;
}

function resolves(from: NodeJS.Require, name: string): boolean {
  try {
    from.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The package entry, compiled when a build exists: run from source (tests, a
 * checkout), the source entry would make jiti transpile the whole entry graph
 * on every load, which takes many seconds on a busy machine.
 */
function ownEntry(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const sibling = join(here, '../index.js');
  if (existsSync(sibling)) return sibling;
  const root = packageRoot();
  const built = root === undefined ? undefined : join(root, 'dist/src/index.js');
  return built !== undefined && existsSync(built) ? built : join(here, '../index.ts');
}

function ownZod(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('zod');
  } catch {
    return undefined;
  }
}
