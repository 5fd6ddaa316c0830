import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Packages the entry must load only on first use: each costs 20-100 ms of start-up. */
const LAZY = [
  'yaml',
  'ajv',
  'jiti',
  'zod',
  'tinyglobby',
  'picomatch',
  '@google/genai',
  'openai',
  'commander',
  'kysely',
  'libsql',
  'pg',
  'nodemailer',
  'tsdav',
  'fastify',
  'pino',
];

function staticImports(file: string): { local: string[]; packages: string[] } {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms),
    ...text.matchAll(/^export\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms),
  ].map((match) => match[1] ?? '');
  const packageName = (s: string): string =>
    s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] ?? s);
  return {
    local: specifiers
      .filter((s) => s.startsWith('.'))
      .map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts'))),
    packages: specifiers
      .filter((s) => !s.startsWith('.') && !s.startsWith('node:'))
      .map(packageName),
  };
}

test('the package entry loads heavy dependencies lazily (cold import stays cheap)', () => {
  const seen = new Set<string>();
  const offenders: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const { local, packages } = staticImports(file);
    for (const name of packages)
      if (LAZY.includes(name)) offenders.push(`${path.relative(HERE, file)} imports ${name}`);
    local.forEach(visit);
  };
  visit(path.join(HERE, 'index.ts'));
  expect(seen.size).toBeGreaterThan(20);
  expect(offenders).toEqual([]);
});
