import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HEAVY = ['yaml', 'ajv', 'jiti'];

/** Value imports (not `import type`, not `await import()`) of one module, relative ones resolved. */
function staticImports(file: string): { local: string[]; packages: string[] } {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms),
    ...text.matchAll(/^export\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms),
  ].map((match) => match[1] ?? '');
  return {
    local: specifiers
      .filter((s) => s.startsWith('.'))
      .map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts'))),
    packages: specifiers.filter((s) => !s.startsWith('.')).map((s) => s.split('/')[0] ?? s),
  };
}

test('importing the spec entry never loads yaml, ajv or jiti (cold start stays cheap)', () => {
  const seen = new Set<string>();
  const offenders: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const { local, packages } = staticImports(file);
    for (const name of packages)
      if (HEAVY.includes(name)) offenders.push(`${path.relative(HERE, file)} imports ${name}`);
    local.forEach(visit);
  };
  visit(path.join(HERE, 'index.ts'));
  expect(seen.size).toBeGreaterThan(10);
  expect(offenders).toEqual([]);
});
