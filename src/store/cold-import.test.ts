import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HEAVY = ['kysely', 'libsql', 'pg'];

/** Runtime (non-type) import specifiers of a file. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms),
    ...text.matchAll(/^export\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms),
  ].map((match) => match[1] ?? '');
}

test('importing the store entry loads no database code until openStore() runs', () => {
  const seen = new Set<string>();
  const offenders: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith('.'))
        visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (HEAVY.includes(specifier.split('/')[0] ?? ''))
        offenders.push(`${path.relative(HERE, file)} imports ${specifier}`);
    }
  };
  visit(path.join(HERE, 'index.ts'));
  expect(seen.size).toBeGreaterThan(3);
  expect(offenders).toEqual([]);
});
